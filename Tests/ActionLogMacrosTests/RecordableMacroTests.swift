import ActionLogMacrosPlugin
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// What `@Recordable` writes, and what it refuses, as the compiler shows them.
final class RecordableMacroTests: XCTestCase {
    private let macros: [String: any Macro.Type] = ["Recordable": RecordableMacro.self]

    /// Labels, inner names and unnamed parameters are passed on as the protocol spells them; the
    /// journal gets the method's base name and the arguments in order.
    func testExpansion() {
        assertMacroExpansion(
            """
            @Recordable(errors: [ProductError.self])
            public protocol ProductService: Sendable {
                func fetchProduct(id: String) async throws -> Product
                func addToBasket(_ id: String, quantity count: Int) async throws
                func ping(_: Int) async throws -> Bool
            }
            """,
            expandedSource: """
                public protocol ProductService: Sendable {
                    func fetchProduct(id: String) async throws -> Product
                    func addToBasket(_ id: String, quantity count: Int) async throws
                    func ping(_: Int) async throws -> Bool
                }

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
            macros: macros)
    }

    /// An internal protocol without `errors:` gets an internal wrapper that throws every error as
    /// recorded.
    func testInternalWithoutErrors() {
        assertMacroExpansion(
            """
            @Recordable
            protocol Clock: Sendable {
                func now() async throws -> Double
            }
            """,
            expandedSource: """
                protocol Clock: Sendable {
                    func now() async throws -> Double
                }

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
            macros: macros)
    }

    /// Each requirement a wrapper cannot record is named where it is written, and nothing is added.
    func testRefusals() {
        let requirements = """
            protocol Mixed {
                var name: String { get }
                func sync() -> Int
                func typed() async throws(MyError) -> Int
                static func make() async throws -> Self
                func generic<T: Codable>(_ value: T) async throws -> T
                func many(_ values: Int...) async throws
                func change(_ value: inout Int) async throws
            }
            """
        assertMacroExpansion(
            "@Recordable\n" + requirements,
            expandedSource: requirements,
            diagnostics: [
                DiagnosticSpec(message: "@Recordable records methods only: move properties, initializers and associated types to another protocol", line: 3, column: 5),
                DiagnosticSpec(message: "@Recordable records `async throws` methods only: on replay the answer comes from the journal, and a call that is not the recorded one throws", line: 4, column: 10),
                DiagnosticSpec(message: "@Recordable records methods that throw `any Error`: on replay a call that is not the recorded one throws a ServiceCallDivergence", line: 5, column: 10),
                DiagnosticSpec(message: "@Recordable cannot record a static method", line: 6, column: 17),
                DiagnosticSpec(message: "@Recordable cannot record a generic method: its calls are journaled as JSON of concrete types", line: 7, column: 10),
                DiagnosticSpec(message: "@Recordable cannot record a variadic parameter", line: 8, column: 10),
                DiagnosticSpec(message: "@Recordable cannot record an inout parameter: a recorded call's answer is its return value", line: 9, column: 10),
            ],
            macros: macros)
        assertMacroExpansion(
            "@Recordable struct NotAService {}",
            expandedSource: "struct NotAService {}",
            diagnostics: [DiagnosticSpec(message: "@Recordable goes on a service protocol", line: 1, column: 1)],
            macros: macros)
    }
}
