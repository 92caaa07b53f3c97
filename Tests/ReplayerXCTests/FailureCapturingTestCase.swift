import XCTest

/// An XCTest case that can take the failures an assertion reports instead of failing with them, so
/// that a test can pin a failure's whole message.
class FailureCapturingTestCase: XCTestCase {
    private var captured: [String] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// The failures `body` reported, each as XCTest got it ("failed - …"). On Linux, IssueReporting
    /// may append a note about host applications after a "━━┉┅" rule: it is left out.
    func failures(of body: () -> Void) -> [String] {
        start()
        body()
        return finish()
    }

    /// The failures `body` reported; see ``failures(of:)-(()->Void)``.
    func failures(of body: () async -> Void) async -> [String] {
        start()
        await body()
        return finish()
    }

    private func start() {
        captured = []
        capturing = true
    }

    private func finish() -> [String] {
        capturing = false
        return captured.map { $0.components(separatedBy: "\n\n━━┉┅").first ?? $0 }
    }
}
