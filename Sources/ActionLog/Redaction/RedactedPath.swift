/// A place of the recorded state whose value never reaches the journal: a JSON Pointer in which a
/// token `*` stands for any member of an object or any element of an array at that level.
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.redactedPaths = ["/user/token", "/cards/*/number"]
/// ```
///
/// The syntax is RFC 6901's (`~0` for `~`, `~1` for `/` inside a key), with one addition: a token
/// that is exactly `*` matches anything at its level, so a key named `*` cannot be named alone. A
/// path names a value and everything below it. A number names an object member of that name or the
/// array element at that index; prefer `*` for arrays, since elements move when one is inserted or
/// removed before them (the recorder then writes a keyframe instead of a delta, to stay exact).
///
/// A path that is not a pointer (`user.token`, `/a~2`) is kept as written, and ``Recorder`` refuses
/// it when it starts, naming the path: a typo must not let a secret through silently.
public struct RedactedPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One level of a path.
    package enum Token: Hashable, Sendable {
        /// A member name, or an array index written in decimal.
        case name(String)
        /// `*`: any member or element.
        case any
    }

    /// The path as written.
    public let description: String
    /// The tokens, outermost first; `nil` when ``description`` is not a pointer.
    package let tokens: [Token]?

    /// Parses a path such as `/cards/*/number`.
    ///
    /// ```swift
    /// RedactedPath("/cards/*/number").tokens   // [.name("cards"), .any, .name("number")]
    /// RedactedPath("cards.number").tokens      // nil: it does not start with "/"
    /// ```
    ///
    /// - Parameter text: the path; the empty string names the whole state.
    public init(_ text: String) {
        description = text
        switch JSONPointer.parse(text) {
        case .success(let pointer): tokens = pointer.tokens.map { $0 == "*" ? .any : .name($0) }
        case .failure: tokens = nil
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Why ``description`` is not a path, or `nil` when it is one.
    var syntaxError: String? {
        guard case .failure(let error) = JSONPointer.parse(description) else { return nil }
        return error.reason
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
