// The JSON API from the browser: every error comes back as {error: {code, message}}.

export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || `request failed (${status})`);
    this.status = status;
    this.code = error.code || "error";
    this.detail = error;
  }
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (body && body.error) || { message: response.statusText });
  }
  return body;
}

/** GET a JSON answer. */
export async function getJSON(url, { signal } = {}) {
  return answer(await fetch(url, { headers: { Accept: "application/json" }, signal }));
}

/** POST JSON (an object, or its text already written) with optional extra headers; read the answer. */
export async function postJSON(url, body, headers = {}) {
  return answer(
    await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** POST a file as a form upload. */
export async function postFile(url, field, file) {
  const form = new FormData();
  form.append(field, file);
  return answer(await fetch(url, { method: "POST", body: form, headers: { Accept: "application/json" } }));
}
