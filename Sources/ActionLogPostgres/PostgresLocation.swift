import ActionLog
import Foundation

/// Where a team store is: a server, a user and a database, from a `postgres://` URL with the
/// standard `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD` and `PGDATABASE` variables filling in what the
/// URL leaves out, as `psql` does. The password is kept for the connection only: ``description``,
/// which every message uses, never shows it.
package struct PostgresLocation: Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var user: String
    package var database: String
    /// What TLS the URL asks for (`sslmode`): `disable`, or `prefer` (the default: TLS when the server offers it), or `require`.
    package var tls: TLSMode
    let password: String?

    package enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    /// Whether `text` is a store's URL rather than a file's path: it starts with `postgres://` or `postgresql://`.
    package static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads `url`, filling in what it leaves out from `environment` (the `PG*` variables), then
    /// from the defaults: `localhost`, port 5432, the user `postgres`, a database named as the user.
    ///
    /// - Throws: ``ActionLogError`` (``ActionLogError/Code/invalidArgument``) when it is not such a URL,
    ///   naming it without its password.
    package init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ActionLogError) {
        guard Self.isURL(url), let parts = URLComponents(string: url), parts.scheme != nil else {
            throw ActionLogError(.invalidArgument, file: Self.withoutPassword(url), reason: "not a PostgreSQL URL: write postgres://USER@HOST:PORT/DATABASE")
        }
        func nonEmpty(_ text: String?) -> String? { (text?.isEmpty ?? true) ? nil : text }
        host = nonEmpty(parts.host) ?? nonEmpty(environment["PGHOST"]) ?? "localhost"
        let portText = parts.port.map(String.init) ?? nonEmpty(environment["PGPORT"]) ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw ActionLogError(.invalidArgument, file: Self.withoutPassword(url), reason: "the port \(portText) is not a TCP port (1 to 65535)")
        }
        self.port = port
        user = nonEmpty(parts.user) ?? nonEmpty(environment["PGUSER"]) ?? "postgres"
        password = nonEmpty(parts.password) ?? nonEmpty(environment["PGPASSWORD"])
        let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        database = nonEmpty(path) ?? nonEmpty(environment["PGDATABASE"]) ?? user
        let sslmode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? environment["PGSSLMODE"] ?? "prefer"
        switch sslmode {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default:
            throw ActionLogError(.invalidArgument, file: Self.withoutPassword(url), reason: "sslmode \(sslmode) is not one of disable, prefer, require")
        }
    }

    /// `postgres://USER@HOST:PORT/DATABASE`: how messages name the store, never with its password.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
    }

    /// `url` without the password it may hold, for a message about a URL that could not be read.
    static func withoutPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].firstIndex(of: "@") else { return url }
        let credentials = url[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}
