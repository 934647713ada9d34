// The HTTP API: JSON in and out, errors as ApiError with the server's code and message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Calls the API; resolves with the decoded JSON body (null when there is none). */
export async function api(path, { method = 'GET', body } = {}) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'Parlor cannot be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : data;
    const code = (error && error.code) || String(response.status);
    const message = (error && error.message) || (response.status === 401 ? 'Please sign in.' : `Something went wrong (${response.status}).`);
    throw new ApiError(response.status, code, message);
  }
  return data;
}
