/// A place whose value never reaches the journal: a JSON Pointer into the recorded state, or, after
/// a scope, into the actions, effects, output events or service calls of the session. A token `*`
/// stands for any member of an object or any element of an array at that level.
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.redactedPaths = [
///     "/user/token",                             // the state
///     "/cards/*/number",
///     "action:/signedIn/token",                  // the token of every signedIn(token:) action
///     "effect:/storeToken/_0",                   // the effect storeToken(String)
///     "output:/showAccount/account/email",       // an event ViewModel's output event
///     "call:/AuthService/signIn/arguments/1",    // the second argument of AuthService.signIn
///     "call:/AuthService/signIn/result/token",   // and the token in its answer
/// ]
/// ```
///
/// A path without a scope is anchored at the state. With one, it is anchored at each value of that
/// kind, as the journal holds it: an action or an effect at its case (`{"signedIn":{"token":…}}`, so
/// `action:/signedIn/token`; an unlabeled value is `_0`, `_1`), an output event likewise, and a
/// service call at its service and method, then `arguments/<index>`, `result` or `error`
/// (`call:/AuthService/signIn/result/token`). Every value the path reaches, in any entry, is written
/// as a placeholder of the same JSON type, and replay redacts what it replays the same way before
/// comparing.
///
/// The syntax is RFC 6901's (`~0` for `~`, `~1` for `/` inside a key), with one addition: a token
/// that is exactly `*` matches anything at its level, so a key named `*` cannot be named alone. A
/// path names a value and everything below it. A number names an object member of that name or the
/// array element at that index; prefer `*` for arrays, since elements move when one is inserted or
/// removed before them (the recorder then writes a keyframe instead of a delta, to stay exact).
///
/// A path that is not a pointer (`user.token`, `/a~2`), has an unknown scope (`state:/user`), or a
/// call path whose third token is not `arguments`, `result`, `error` or `*`, is kept as written, and
/// ``Recorder`` refuses it when it starts, naming the path: a typo must not let a secret through
/// silently. So does a ViewModel recorder, for a call path naming a service it was not given.
public struct RedactedPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One level of a path.
    package enum Token: Hashable, Sendable {
        /// A member name, or an array index written in decimal.
        case name(String)
        /// `*`: any member or element.
        case any
    }

    /// What a path is anchored at: the state, or the messages of one kind.
    package enum Scope: String, Sendable, CaseIterable {
        /// The recorded state: a path without a scope.
        case state
        /// Each action (an event ViewModel's `ViewEvent`s, a store's messages), at its case.
        case action
        /// Each effect, at its case.
        case effect
        /// Each output event of an event ViewModel, at its case.
        case output
        /// Each service call, at `/<service>/<method>`, then `arguments/<index>`, `result` or `error`.
        case call

        /// The prefix a path of this scope starts with: `action:`; none for the state.
        package var prefix: String { self == .state ? "" : rawValue + ":" }
    }

    /// The path as written.
    public let description: String
    /// What the path is anchored at.
    package let scope: Scope
    /// The tokens after the scope, outermost first; `nil` when ``description`` is not a path.
    package let tokens: [Token]?

    /// Parses a path such as `/cards/*/number` or `action:/signedIn/token`.
    ///
    /// ```swift
    /// RedactedPath("/cards/*/number").tokens          // [.name("cards"), .any, .name("number")]
    /// RedactedPath("action:/signedIn/token").scope    // .action
    /// RedactedPath("cards.number").tokens             // nil: it does not start with "/"
    /// ```
    ///
    /// - Parameter text: the path; the empty string names the whole state, `action:` every action whole.
    public init(_ text: String) {
        description = text
        let (scope, pointer) = Self.split(text)
        self.scope = scope ?? .state
        switch (scope, pointer.map(JSONPointer.parse)) {
        case (_?, .success(let pointer)?): tokens = pointer.tokens.map { $0 == "*" ? .any : .name($0) }
        default: tokens = nil
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The scope and the pointer's text of `text`: no scope for a text without a known one (`nil`
    /// with the whole text when it starts with `/` or is empty, `nil` for both when its prefix is
    /// not a scope's).
    private static func split(_ text: String) -> (Scope?, String?) {
        if text.isEmpty || text.hasPrefix("/") { return (.state, text) }
        guard let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") else { return (nil, text) }
        guard let scope = Scope(rawValue: String(text[..<colon])), scope != .state else { return (nil, nil) }
        return (scope, String(text[text.index(after: colon)...]))
    }

    /// Why ``description`` is not a path, or `nil` when it is one: a phrase that follows the path.
    var syntaxError: String? {
        let known = Scope.allCases.filter { $0 != .state }.map(\.prefix)
        let (scope, pointer) = Self.split(description)
        guard let pointer else {
            let prefix = description.prefix { $0 != ":" }
            return """
                has an unknown scope \(JSONPatch.quoted(String(prefix) + ":")): a path of the state has none, and one of the messages \
                starts with \(known.dropLast().joined(separator: ", ")) or \(known.last ?? "")
                """
        }
        if case .failure(let error) = JSONPointer.parse(pointer) {
            let after = scope.map { $0 == .state ? "" : " after \(JSONPatch.quoted($0.prefix))" } ?? ""
            return "is not a JSON Pointer\(after): \(error.reason)"
        }
        if scope == .call, let tokens, tokens.count > 2, case .name(let part) = tokens[2], !["arguments", "result", "error"].contains(part) {
            return "names \(JSONPatch.quoted(part)) of a call, which has arguments, result or error"
        }
        return nil
    }
}

extension RedactedPath.Token {
    /// Whether the token matches a pointer token at the same level.
    ///
    /// `-` (the end of an array, in an `add`) matches a number too: the element it appends could
    /// be at that index.
    func matches(_ token: String) -> Bool {
        switch self {
        case .any: true
        case .name(let name): name == token || (token == "-" && JSONPointer.arrayIndex(name) != nil)
        }
    }

    /// Whether the token names a position in an array (a decimal index), which moves when elements
    /// are inserted or removed before it.
    var isPosition: Bool {
        if case .name(let name) = self { return JSONPointer.arrayIndex(name) != nil }
        return false
    }
}
