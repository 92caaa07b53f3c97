import Foundation
import Testing

/// What `@Recordable` writes, and what it refuses, as the compiler shows them: each snippet is
/// type-checked by the toolchain's `swiftc` against the built `ActionLogMacros` module, with the
/// built macro plugin, and the expansions (`-dump-macro-expansions`) and diagnostics it prints are
/// compared whole. The plugin runs as it runs in an app's build, and the test bundle does not link
/// swift-syntax (a test target that depends on a macro target makes SwiftPM build every test target
/// a second time, for the host).
@Suite("@Recordable's expansion and refusals, from the compiler")
struct RecordableMacroTests {
    /// Labels, inner names and unnamed parameters are passed on as the protocol spells them; the
    /// journal gets the method's base name and the arguments in order.
    @Test("a public protocol with errors: gets a public wrapper that passes labels, inner names and unnamed parameters on")
    func expansion() throws {
        let result = try typeCheck("""
            public struct Product: Codable, Sendable {}
            public enum ProductError: Error, Codable { case gone }

            @Recordable(errors: [ProductError.self])
            public protocol ProductService: Sendable {
                func fetchProduct(id: String) async throws -> Product
                func addToBasket(_ id: String, quantity count: Int) async throws
                func ping(_: Int) async throws -> Bool
            }
            """)
        #expect(result.diagnostics == [])
        #expect(result.expansions == [
            """
            /// `ProductService` with its calls journaled by ActionLog: pass it where the ViewModel takes its
            /// `ProductService`. While a recorder runs the handler, each call goes to `live` and is journaled
            /// with its answer; on replay it is answered from the journal and `live` is never called.
            public struct RecordedProductService: ProductService {
                /// The service the calls go to while recording (and outside any recorded handler).
                public let live: any ProductService
                /// What journals the calls, under the service name `ProductService`.
                public let recorded: RecordedService

                /// Wraps `live`.
                public init(live: any ProductService) {
                    self.live = live
                    self.recorded = RecordedService("ProductService", errors: [ProductError.self])
                }

                public func fetchProduct(id: String) async throws -> Product {
                    try await recorded.call("fetchProduct", id) {
                        try await live.fetchProduct(id: id)
                    }
                }

                public func addToBasket(_ id: String, quantity count: Int) async throws {
                    try await recorded.call("addToBasket", id, count) {
                        try await live.addToBasket(id, quantity: count)
                    }
                }

                public func ping(_ argument0: Int) async throws -> Bool {
                    try await recorded.call("ping", argument0) {
                        try await live.ping(argument0)
                    }
                }
            }
            """,
        ])
    }

    /// An internal protocol without `errors:` gets an internal wrapper that throws every error as
    /// recorded.
    @Test("an internal protocol without errors: gets an internal wrapper")
    func internalWithoutErrors() throws {
        let result = try typeCheck("""
            @Recordable
            protocol Clock: Sendable {
                func now() async throws -> Double
            }
            """)
        #expect(result.diagnostics == [])
        #expect(result.expansions == [
            """
            /// `Clock` with its calls journaled by ActionLog: pass it where the ViewModel takes its
            /// `Clock`. While a recorder runs the handler, each call goes to `live` and is journaled
            /// with its answer; on replay it is answered from the journal and `live` is never called.
            struct RecordedClock: Clock {
                /// The service the calls go to while recording (and outside any recorded handler).
                let live: any Clock
                /// What journals the calls, under the service name `Clock`.
                let recorded: RecordedService

                /// Wraps `live`.
                init(live: any Clock) {
                    self.live = live
                    self.recorded = RecordedService("Clock", errors: [])
                }

                func now() async throws -> Double {
                    try await recorded.call("now") {
                        try await live.now()
                    }
                }
            }
            """,
        ])
    }

    /// Each requirement a wrapper cannot record is named where it is written, and nothing is added.
    @Test("each requirement a wrapper cannot record is an error where it is written, and nothing is added")
    func refusals() throws {
        let result = try typeCheck("""
            struct MyError: Error {}
            @Recordable
            protocol Mixed {
                var name: String { get }
                func sync() -> Int
                func typed() async throws(MyError) -> Int
                static func make() async throws -> Self
                func generic<T: Codable>(_ value: T) async throws -> T
                func many(_ values: Int...) async throws
                func change(_ value: inout Int) async throws
            }
            @Recordable struct NotAService {}
            """)
        // Line 1 of the snippet is line 2 of the file, after `import ActionLogMacros`.
        #expect(result.diagnostics == [
            "5:5: error: @Recordable records methods only: move properties, initializers and associated types to another protocol",
            "6:10: error: @Recordable records `async throws` methods only: on replay the answer comes from the journal, and a call that is not the recorded one throws",
            "7:10: error: @Recordable records methods that throw `any Error`: on replay a call that is not the recorded one throws a ServiceCallDivergence",
            "8:17: error: @Recordable cannot record a static method",
            "9:10: error: @Recordable cannot record a generic method: its calls are journaled as JSON of concrete types",
            "10:10: error: @Recordable cannot record a variadic parameter",
            "11:10: error: @Recordable cannot record an inout parameter: a recorded call's answer is its return value",
            "13:1: error: @Recordable goes on a service protocol",
        ])
        #expect(result.expansions == ["", ""])
    }
}

/// What `swiftc -typecheck` said of a snippet: the peer each macro expanded to, in order, and
/// each diagnostic as `LINE:COLUMN: KIND: MESSAGE`.
private struct TypeCheck {
    var expansions: [String] = []
    var diagnostics: [String] = []
}

/// Type-checks `import ActionLogMacros` and `snippet` with the toolchain's `swiftc`, the modules
/// `swift build` wrote beside this test bundle, and the macro plugin built there.
private func typeCheck(_ snippet: String) throws -> TypeCheck {
    let build = try builtProducts()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recordable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("snippet.swift")
    try Data(("import ActionLogMacros\n" + snippet + "\n").utf8).write(to: file)
    // The sources' root, for the system library's module map (CSQLite, under ActionLog).
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = try swiftc()
    process.arguments = [
        "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm",
        "-I", build.appendingPathComponent("Modules").path,
        "-Xcc", "-fmodule-map-file=" + root.appendingPathComponent("Sources/CSQLite/module.modulemap").path,
        "-load-plugin-executable", build.appendingPathComponent("ActionLogMacrosPlugin-tool").path + "#ActionLogMacrosPlugin",
        "-Xfrontend", "-dump-macro-expansions", file.path,
    ]
    let errors = directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let text = try String(contentsOf: errors, encoding: .utf8)
    var result = TypeCheck()
    let separator = "------------------------------"
    var lines = text.components(separatedBy: "\n")[...]
    while let line = lines.popFirst() {
        if line.hasPrefix("@__swiftmacro_"), lines.first == separator {
            lines.removeFirst()
            var expansion: [String] = []
            while let next = lines.popFirst(), next != separator { expansion.append(next) }
            result.expansions.append(expansion.joined(separator: "\n"))
        } else if line.hasPrefix(file.path + ":") {
            let diagnostic = String(line.dropFirst(file.path.count + 1))
            // The compiler adds where it came from (`(from macro 'Recordable')`, the name with the trivia after it).
            result.diagnostics.append(diagnostic.replacingOccurrences(of: #" \(from macro '[^']*'\)$"#, with: "", options: .regularExpression))
        }
    }
    return result
}

/// The directory `swift build` wrote this test bundle's modules and products to.
private func builtProducts() throws -> URL {
    var candidates = [Bundle.main.bundleURL]
    candidates += Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }.map { $0.bundleURL.deletingLastPathComponent() }
    for candidate in candidates where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("ActionLogMacrosPlugin-tool").path) {
        return candidate
    }
    throw MacroTestFailure("the macro plugin ActionLogMacrosPlugin-tool is not in \(candidates.map(\.path))")
}

/// The toolchain's `swiftc`: the one on `PATH`.
private func swiftc() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw MacroTestFailure("no swiftc on PATH (\(path))")
}

private struct MacroTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
