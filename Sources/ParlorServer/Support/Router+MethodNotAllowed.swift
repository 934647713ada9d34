import HTTPTypes
import Hummingbird

extension Router {
    /// Answers a method a path does not take with 405 and `Allow` listing those it does, instead
    /// of the unknown-route 404. Call once every route is registered. `staticPaths` are served
    /// by the file middleware (GET and HEAD).
    func answerOtherMethodsWith405(staticPaths: [String]) {
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]
            + ["QUERY"].compactMap { HTTPRequest.Method($0) }
        var allowedByPath = Dictionary(grouping: routes, by: { $0.path.description }).mapValues { $0.map(\.method) }
        for path in staticPaths { allowedByPath[path, default: []] += [.get, .head] }
        for (path, allowed) in allowedByPath {
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in methods where !allowed.contains(method) {
                self.on(RouterPath(path), method: method) { _, _ -> Response in
                    var error = APIError(.methodNotAllowed, code: .methodNotAllowed, "This address takes \(allow), not \(method.rawValue).")
                    error.headers[.allow] = allow
                    throw error
                }
            }
        }
    }
}
