/// A location inside a JSON document, as an RFC 6901 JSON Pointer: `/cart/items/0`.
///
/// A pointer is a list of reference tokens. Each token names an object member or, when the
/// value there is an array, an element index (`0`, `1`, … without leading zeros) or `-`, the
/// position after the last element. The empty pointer names the whole document. In the text
/// form `~` is written `~0` and `/` is written `~1`.
///
/// ```swift
/// let pointer = JSONPointer("/a~1b/0")!
/// pointer.tokens       // ["a/b", "0"]
/// pointer.description  // /a~1b/0
/// JSONPointer(tokens: ["m~n"]).description  // /m~0n
/// ```
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    public var tokens: [String]

    /// The pointer to the whole document (the empty pointer, written as the empty string).
    public static let root = JSONPointer(tokens: [])

    /// Makes a pointer from unescaped tokens.
    ///
    /// ```swift
    /// JSONPointer(tokens: ["cart", "items", "3"]).description  // /cart/items/3
    /// ```
    ///
    /// - Parameter tokens: the reference tokens, outermost first, without any `~` escaping.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the text form of a pointer, or returns `nil` when `text` is not one.
    ///
    /// A pointer is either empty or starts with `/`, and every `~` in it is followed by `0` or `1`.
    ///
    /// ```swift
    /// JSONPointer("/foo/0")?.tokens  // ["foo", "0"]
    /// JSONPointer("foo")             // nil: it does not start with "/"
    /// ```
    ///
    /// - Parameter text: the pointer as written in a JSON Patch, for example `/a~1b/-`.
    public init?(_ text: String) {
        guard case .success(let pointer) = Self.parse(text) else { return nil }
        self = pointer
    }

    /// The pointer to the same location as a ``FieldPath``: keys become tokens, indices become decimal tokens.
    ///
    /// ```swift
    /// JSONPointer(FieldPath([.key("cart"), .index(2)])).description  // /cart/2
    /// ```
    ///
    /// - Parameter path: the field path to convert.
    public init(_ path: FieldPath) {
        tokens = path.components.map { component in
            switch component {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// Whether the pointer names the whole document.
    public var isRoot: Bool { tokens.isEmpty }

    /// The pointer one level deeper.
    ///
    /// ```swift
    /// JSONPointer.root.appending("items").appending("0").description  // /items/0
    /// ```
    ///
    /// - Parameter token: the unescaped token to add: a member name, an index or `-`.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// Whether `self` names a location strictly inside the value that `other` names.
    package func isProperDescendant(of other: JSONPointer) -> Bool {
        tokens.count > other.tokens.count && tokens.starts(with: other.tokens)
    }

    /// The text form: each token escaped (`~` as `~0`, `/` as `~1`) and preceded by `/`; empty for the root.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for character in token.unicodeScalars {
                switch character {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    /// Parses `text`, or says why it is not a pointer (a phrase for ``ActionLogError/reason``).
    package static func parse(_ text: String) -> Result<JSONPointer, PointerSyntaxError> {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses a pointer from its UTF-8 bytes, which must be valid UTF-8; see ``parse(_:)``.
    ///
    /// The bytes are split on `/` one by one (`/` and `~` are ASCII, never inside a multi-byte
    /// character); a token without `~` is its bytes as they are, the common case, with no unescaping.
    package static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONPointer, PointerSyntaxError> {
        guard !bytes.isEmpty else { return .success(.root) }
        guard bytes[0] == UInt8(ascii: "/") else {
            return .failure(PointerSyntaxError(reason: "it must be empty or start with \"/\""))
        }
        var tokens: [String] = []
        // One allocation for the list: as many tokens as slashes.
        tokens.reserveCapacity(bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) })
        var start = 1
        var escaped = false
        func token(_ range: Range<Int>, escaped: Bool) throws(PointerSyntaxError) -> String {
            let raw = UnsafeBufferPointer(rebasing: bytes[range])
            guard escaped else { return makeString(raw) }
            var unescaped: [UInt8] = []
            unescaped.reserveCapacity(raw.count)
            var index = 0
            while index < raw.count {
                let byte = raw[index]
                index += 1
                guard byte == UInt8(ascii: "~") else {
                    unescaped.append(byte)
                    continue
                }
                switch index < raw.count ? raw[index] : 0 {
                case UInt8(ascii: "0"): unescaped.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): unescaped.append(UInt8(ascii: "/"))
                default: throw PointerSyntaxError(reason: "\"~\" must be followed by 0 or 1")
                }
                index += 1
            }
            return String(decoding: unescaped, as: UTF8.self)
        }
        do throws(PointerSyntaxError) {
            for index in 1..<bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "/"):
                    tokens.append(try token(start..<index, escaped: escaped))
                    start = index + 1
                    escaped = false
                case UInt8(ascii: "~"):
                    escaped = true
                default:
                    break
                }
            }
            tokens.append(try token(start..<bytes.count, escaped: escaped))
        } catch {
            return .failure(error)
        }
        return .success(JSONPointer(tokens: tokens))
    }

    package struct PointerSyntaxError: Error {
        package let reason: String
    }
}
