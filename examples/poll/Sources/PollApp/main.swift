import ParlorAppRunner
import Poll

// Quick Poll in its own process, dialled in to a running Parlor: register manifest.json with
// `parlor apps add`, then `PARLOR_APP_SECRET=… swift run poll-app` (PARLOR_URL defaults to
// http://127.0.0.1:8080). The app's code is the same as in the simulator tests.
try await AppRunner(app: Poll()).run()
