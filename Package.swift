// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "ActionLog",
    // The clocks and `Duration` of Swift concurrency, and `any P<T>`, set the floor on Apple platforms.
    // What is newer is used only where the system has it: Observation (the reference `Store` is
    // observable from macOS 14 and iOS 17) and the 128-bit integers (encoded from macOS 15 and iOS 18).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ActionLog", targets: ["ActionLog"]),
        .library(name: "Replayer", targets: ["Replayer"]),
        // The reference `Store` (pure reducer, effect handler, middleware) that records in one line.
        .library(name: "ActionLogStore", targets: ["ActionLogStore"]),
        // The time-travel viewer: a local web page over a journal (`ViewerServer`) or a self-contained report.
        .library(name: "ActionLogViewer", targets: ["ActionLogViewer"]),
        // `@Recordable` on a service protocol writes its recording wrapper; a product of its own, as it
        // builds swift-syntax.
        .library(name: "ActionLogMacros", targets: ["ActionLogMacros"]),
        // The team store: a journal's sessions pushed to PostgreSQL and read back (`replay-cli push`); a
        // product of its own, so that an app embedding `ActionLog` does not link postgres-nio.
        .library(name: "ActionLogPostgres", targets: ["ActionLogPostgres"]),
        .executable(name: "replay-cli", targets: ["replay-cli"]),
        // `swift run actionlog-demo`: records the example features into a journal and replays them.
        .executable(name: "actionlog-demo", targets: ["actionlog-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // JSON values, their canonical text, JSON Pointers and RFC 6902 patches: no other ActionLog type.
        .target(name: "ActionLogJSON"),
        // The journal: recording, the file (schema, sessions, entries), reading and maintenance.
        .target(name: "ActionLog", dependencies: ["CSQLite", "ActionLogJSON"]),
        // Replay, divergence reports and golden assertions (`assertReplay` reports through IssueReporting,
        // so one call fails a test in XCTest and in Swift Testing).
        // The viewer's page and the self-contained HTML reports built from it: no server, no sockets.
        .target(name: "ActionLogViewerPage", dependencies: ["ActionLog"]),
        // The viewer: the page served by a small HTTP server of its own on POSIX sockets.
        .target(name: "ActionLogViewer", dependencies: ["ActionLog", "ActionLogViewerPage"]),
        .target(
            name: "Replayer",
            dependencies: [
                "ActionLog", "ActionLogViewerPage",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ]
        ),
        .macro(
            name: "ActionLogMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "ActionLogMacros", dependencies: ["ActionLog", "ActionLogMacrosPlugin"]),
        // The reference Store with its recording hook: a product, so an app imports it instead of copying it.
        .target(name: "ActionLogStore", dependencies: ["ActionLog"]),
        // The example features used by the demo, the fixtures and the tests.
        .target(name: "ActionLogExamples", dependencies: ["ActionLog", "ActionLogStore"]),
        // What replay-cli and actionlog-demo share: checked output, the terminal, errors as exit statuses.
        .target(
            name: "CommandLineSupport",
            dependencies: ["ActionLog", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The team store on PostgreSQL: push, and the sessions read back into temporary journals.
        .target(name: "ActionLogPostgres", dependencies: ["ActionLog", .product(name: "PostgresNIO", package: "postgres-nio")]),
        .executableTarget(
            name: "replay-cli",
            dependencies: [
                "ActionLog", "Replayer", "ActionLogViewer", "CommandLineSupport", "ActionLogPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The demo: an executable of its own, so that replay-cli does not link the examples.
        .executableTarget(
            name: "actionlog-demo",
            dependencies: [
                "ActionLog", "Replayer", "ActionLogExamples", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift run -c release actionlog-bench`: journaling cost against baselines measured in the same run.
        .executableTarget(name: "actionlog-bench", dependencies: ["ActionLog", "Replayer", "CSQLite", "ActionLogViewer", "CPerfCounter"]),
        // The benchmark's count of the instructions one thread retires (Linux perf events; none elsewhere).
        .target(name: "CPerfCounter"),
        // Test support: records until it is killed (`CrashDurabilityTests` SIGKILLs it).
        .executableTarget(name: "actionlog-crash-child", dependencies: ["ActionLog"]),
        // Depends on the crash child so that `swift test` builds it.
        .testTarget(name: "ActionLogTests", dependencies: ["ActionLog", "ActionLogExamples", "actionlog-crash-child"]),
        // RFC 6902 conformance (the public JSON Patch suite) and diff properties.
        .testTarget(
            name: "JSONPatchTests",
            dependencies: ["ActionLog", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Resources")]
        ),
        // Swift Testing: `IssueReportingTestSupport` makes issues reported by `assertReplay` fail these tests.
        .testTarget(
            name: "ReplayerTests",
            dependencies: [
                "Replayer", "ActionLog", "ActionLogStore", "ActionLogExamples",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // A Store from the ActionLogStore product, recorded and replayed as an app's tests would.
        .testTarget(
            name: "ActionLogStoreTests",
            dependencies: [
                "ActionLogStore", "ActionLog", "Replayer",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // `@Recordable`: its expansions and diagnostics from the compiler with the built plugin, and a
        // wrapper it wrote recording and replaying. No dependency on the macro target itself: a test
        // target with one makes SwiftPM build every test target, and all they depend on, a second time
        // for the host.
        .testTarget(
            name: "ActionLogMacrosTests",
            dependencies: [
                "ActionLogMacros", "Replayer",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // The same golden assertions under XCTest.
        .testTarget(
            name: "ReplayerXCTests",
            dependencies: [
                "Replayer", "ActionLog", "ActionLogExamples",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        // The damaged files the hostile-file suites share: a small recorded fixture, and seeded mutants of
        // its journal and text form (byte damage, SQL edits through the C API with every value bound).
        .target(name: "HostileFileSupport", dependencies: ["ActionLog", "CSQLite"], path: "Tests/HostileFileSupport"),
        // Every file is untrusted: seeded mutants of journals and text forms through every reader.
        .testTarget(name: "HostileFileTests", dependencies: ["ActionLog", "Replayer", "CSQLite", "HostileFileSupport"]),
        // The viewer's server and reports, in-process, and in headless Chromium driven over the DevTools pipe
        // (no extra package; `ACTIONLOG_SKIP_BROWSER=1` skips the browser suites).
        .testTarget(name: "ViewerTests", dependencies: ["ActionLogViewer", "ActionLog", "ActionLogExamples"]),
        // Runs the built `replay-cli` and `actionlog-demo` binaries; depending on them makes `swift test`
        // build them first. The same seeded mutants through every command and the viewer's routes.
        .testTarget(
            name: "ReplayCLITests",
            dependencies: ["ActionLog", "ActionLogExamples", "ActionLogViewer", "HostileFileSupport", "replay-cli", "actionlog-demo"]
        ),
        // The team store against a real PostgreSQL server (`ACTIONLOG_TEST_POSTGRES_URL`, which
        // `scripts/with-postgres` sets; skipped with a notice without it): the library and `replay-cli`.
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "ActionLogPostgres", "ActionLog", "replay-cli", "actionlog-demo",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
