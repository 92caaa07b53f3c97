import ActionLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the DevTools pipe, for tests.
///
/// ```swift
/// try await Browser.with { browser in
///     let page = try await browser.newPage("data:text/html,<p id=x>hi</p>")
///     #expect(try await page.evaluate("document.querySelector('#x').textContent") == "hi")
/// }
/// ```
///
/// `Browser.with` launches Chromium, runs the body, and kills and reaps Chromium whether the body returns
/// or throws. Chromium runs in its own process group with a temporary profile directory, and its standard
/// error goes to a file in that directory (quoted when the pipe closes unexpectedly). Its fds 3 and 4 are
/// one end of a Unix socket pair: Chromium reads and writes them as it would the two ends of pipes, and
/// the harness writes with `MSG_NOSIGNAL`, so a browser that died fails a command instead of raising
/// `SIGPIPE` in the test process.
///
/// The executable is the first of `chromium`, `chromium-browser`, `google-chrome` on `PATH`. When none is
/// there, `launch()` throws an error that says to install it; the suites that use a browser are skipped
/// only when `ACTIONLOG_SKIP_BROWSER=1` (see ``BrowserEnvironment``).
final class Browser: Sendable {
    let pipe: DevToolsPipe
    let pid: pid_t
    /// The temporary profile directory, removed on close.
    let profile: URL
    private let closed = Locked(false)

    private init(pipe: DevToolsPipe, pid: pid_t, profile: URL) {
        self.pipe = pipe
        self.pid = pid
        self.profile = profile
    }

    /// Launches a browser, runs `body` with it, and closes the browser whether `body` returns or throws.
    ///
    /// - Parameters:
    ///   - windowSize: the window's size in CSS pixels.
    ///   - arguments: more command-line switches, e.g. `--host-resolver-rules=MAP rebound.test 127.0.0.1`.
    ///   - body: what to do with the browser.
    /// - Throws: what `launch()` or `body` throws.
    static func with<T>(windowSize: (width: Int, height: Int) = (1280, 800), arguments: [String] = [], _ body: (Browser) async throws -> T) async throws -> T {
        let browser = try await launch(windowSize: windowSize, arguments: arguments)
        defer { browser.close() }
        return try await body(browser)
    }

    /// Starts headless Chromium with a fresh profile and waits until it answers over the pipe.
    ///
    /// - Parameters:
    ///   - windowSize: the window's size in CSS pixels.
    ///   - arguments: more command-line switches.
    /// - Throws: `BrowserError` when Chromium is not installed, does not start, or does not answer in 60 s (a loaded machine may take long to start it).
    static func launch(windowSize: (width: Int, height: Int) = (1280, 800), arguments extra: [String] = []) async throws -> Browser {
        let executable = try BrowserEnvironment.chromiumPath()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("ActionLogBrowser-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = profile.appendingPathComponent("chromium-stderr.log").path
        let arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)", "--window-size=\(windowSize.width),\(windowSize.height)",
            "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--mute-audio",
            "--disable-background-networking", "--disable-dev-shm-usage",
        ] + extra + ["about:blank"]
        let (pid, socket): (pid_t, Int32)
        do {
            (pid, socket) = try spawn(arguments, standardError: log)
        } catch {
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
        let pipe = DevToolsPipe(socket: socket) { Browser.tail(of: log) }
        let browser = Browser(pipe: pipe, pid: pid, profile: profile)
        do {
            _ = try await pipe.send("Browser.getVersion", timeout: .seconds(60))
        } catch {
            browser.close()
            throw BrowserError(description: "\(executable) started but did not answer over the DevTools pipe: \(error)")
        }
        return browser
    }

    /// Opens a new tab with the Runtime, Page and Log domains enabled (and Network when `network` is set),
    /// navigates it to `url` and waits for its load event.
    ///
    /// The domains are enabled before the navigation, so the page's console messages, exceptions and
    /// requests are all recorded from its first line on.
    ///
    /// - Throws: `BrowserError` when Chromium cannot open or load the page.
    func newPage(_ url: String, network: Bool = false) async throws -> Page {
        let target = try await pipe.send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"]?.string else {
            throw BrowserError(description: "Target.createTarget answered without a targetId: \(target)")
        }
        let attached = try await pipe.send("Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let sessionID = attached["sessionId"]?.string else {
            throw BrowserError(description: "Target.attachToTarget answered without a sessionId: \(attached)")
        }
        let page = Page(pipe: pipe, targetID: targetID, sessionID: sessionID)
        for domain in ["Runtime", "Page", "Log"] + (network ? ["Network"] : []) {
            _ = try await page.send("\(domain).enable")
        }
        try await page.goto(url)
        return page
    }

    /// Kills Chromium's process group (the browser, its renderers and helpers) and reaps the browser;
    /// removes the profile. Idempotent.
    ///
    /// No graceful `Browser.close`: the profile is thrown away, and killing the group before reaping
    /// the browser means the group id cannot have been reused by then.
    func close() {
        guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        pipe.closeWriting()
        _ = killpg(pid, SIGKILL)
        Browser.reap(pid)
        // SIGKILL is delivered asynchronously: the renderers may take a moment to die.
        let deadline = ContinuousClock.now + .seconds(10)
        while !Browser.liveProcesses(inGroup: pid).isEmpty && ContinuousClock.now < deadline {
            usleep(20_000)
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// The processes of group `group` that are not zombies, read from `/proc` (empty where there is none).
    static func liveProcesses(inGroup group: pid_t) -> [pid_t] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return names.compactMap { name in
            guard let pid = pid_t(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            // After the command name: state, parent, group.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group else { return nil }
            return pid
        }
    }

    deinit {
        // A browser that was never closed (a test that crashed past `with`) does not outlive the test process.
        if !closed.withLock({ $0 }) {
            pipe.closeWriting()
            _ = killpg(pid, SIGKILL)
            Browser.reap(pid)
            try? FileManager.default.removeItem(at: profile)
        }
    }

    // MARK: - Spawning

    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// The last lines Chromium wrote to standard error, without the noise every headless start prints.
    static func tail(of log: String) -> String {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return "" }
        let lines = text.split(separator: "\n").filter { !$0.contains("dbus") }
        return lines.suffix(15).joined(separator: "\n")
    }

    /// Starts `arguments[0]` in its own process group with one end of a socket pair as its fds 3 and 4;
    /// returns its pid and the other end (what we write there Chromium reads on its fd 3, what it writes
    /// on its fd 4 we read there).
    private static func spawn(_ arguments: [String], standardError: String) throws -> (pid_t, Int32) {
        #if canImport(Glibc)
        // One socket pair: Chromium's end becomes both its fd 3 and its fd 4. Created close-on-exec, so
        // that no other child of the test process inherits it.
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw posixError("socketpair")
        }
        // Chromium's end moved above 10, so that duplicating it onto 3 and 4 never overwrites a descriptor
        // the file actions still need.
        let child = fcntl(pair[1], F_DUPFD_CLOEXEC, Int32(10))
        Glibc.close(pair[1])
        defer { if child >= 0 { Glibc.close(child) } }
        guard child >= 0 else {
            Glibc.close(pair[0])
            throw posixError("fcntl(F_DUPFD_CLOEXEC)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, child, 3)
        posix_spawn_file_actions_adddup2(&actions, child, 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard code == 0 else {
            Glibc.close(pair[0])
            throw BrowserError(description: "could not start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        return (pid, pair[0])
        #else
        throw BrowserError(description: "the browser harness runs on Linux only; unset ACTIONLOG_REQUIRE_BROWSER to skip the browser tests")
        #endif
    }

    private static func posixError(_ call: String) -> BrowserError {
        BrowserError(description: "\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// Where the browser tests find Chromium, and whether they run at all.
///
/// They run where Chromium is on `PATH` (on Linux, the driver's platform), and are skipped with a
/// notice that says why where it is not, so that `swift test` passes on any machine. Where the
/// environment requires them (`ACTIONLOG_REQUIRE_BROWSER=1`, which `.ci/run` sets) they always run,
/// and a missing Chromium fails them, saying how to install it: CI cannot pass without them.
/// `ACTIONLOG_SKIP_BROWSER=1` skips them anyway.
enum BrowserEnvironment {
    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Whether the suites that drive a browser run.
    static var runs: Bool { skipNotice == nil }

    /// Why the suites that drive a browser are skipped here, or `nil` when they run.
    static var skipNotice: String? {
        if environment["ACTIONLOG_SKIP_BROWSER"] == "1" { return "ACTIONLOG_SKIP_BROWSER=1 skips the browser tests" }
        if environment["ACTIONLOG_REQUIRE_BROWSER"] == "1" { return nil }
        #if os(Linux)
        guard (try? chromiumPath()) != nil else {
            return "Chromium is not on PATH, so the viewer's browser tests are skipped (install it with `apt-get install chromium`; ACTIONLOG_REQUIRE_BROWSER=1 makes them fail without it)"
        }
        return nil
        #else
        return "the browser tests drive Chromium the Linux way only, so they are skipped here"
        #endif
    }

    /// The first of `chromium`, `chromium-browser`, `google-chrome` found in the directories of `path` (`PATH`).
    ///
    /// - Throws: `BrowserError` saying how to install Chromium when none is found.
    static func chromiumPath(searching path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") throws -> String {
        let directories = path.split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw BrowserError(description: """
            Chromium is not installed: no chromium, chromium-browser or google-chrome on PATH. \
            The viewer's browser tests need it, and ACTIONLOG_REQUIRE_BROWSER=1 requires them: \
            install it with `apt-get install chromium`.
            """)
    }
}
