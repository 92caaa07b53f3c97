import ActionLog
import Foundation
import HostileFileSupport
import Testing

/// Every file is untrusted: a seeded mutation test over every reader of the library.
///
/// Each mutant damages the fixture's journal or its text form (see ``MutantMaker``) and every reader
/// runs over it (see ``ReaderRun``): none may crash or hang, every error must be a named one, and
/// readers must agree on whether a session is valid. The default run makes 300 mutants from a fixed
/// seed; for a longer run, set the count and, to explore, the first seed:
///
///     ACTIONLOG_MUTATION_ITERATIONS=5000 swift test --filter HostileFileTests
///     ACTIONLOG_MUTATION_SEED=7 ACTIONLOG_MUTATION_ITERATIONS=1 swift test --filter mutants   # one mutant again
///
/// A failing mutant is reported with its seed and what was done to the file. A mutant that crashes
/// the process is named by the last line of the progress file whose path the run prints first.
@Suite("Hostile files: seeded mutants through every reader")
struct MutationTests {
    static let defaultIterations = 300
    static let defaultSeed: UInt64 = 0xAC7_1096

    @Test("no mutant crashes, hangs or fails a reader without a named error")
    func mutants() throws {
        let run = MutationRun(environment: "ACTIONLOG_MUTATION", iterations: Self.defaultIterations, seed: Self.defaultSeed)
        let (iterations, first) = (run.iterations, run.firstSeed)
        let directory = try TemporaryDirectory()
        let fixture = try HostileFixture(in: directory)
        let maker = MutantMaker(fixture: fixture, directory: directory)
        let progress = directory.path("progress.txt")
        print("Mutation run: \(iterations) mutants from seed \(first); the mutant being read is in \(progress)")
        var failures: [String] = []
        var refusals = 0
        var successes = 0
        var targets = (journal: 0, text: 0)
        for index in 0..<iterations {
            let seed = run.seed(index)
            let mutant = try maker.mutant(seed: seed)
            try Data("seed \(seed): \(mutant.description)\n".utf8).write(to: URL(fileURLWithPath: progress))
            // A directory per mutant: the readers write exports and imports next to it.
            let workspace = try TemporaryDirectory()
            var run = ReaderRun(directory: workspace)
            switch mutant.target {
            case .journal:
                targets.journal += 1
                let path = workspace.path("mutant.actionlog")
                try Data(mutant.bytes).write(to: URL(fileURLWithPath: path))
                run.readJournal(at: path)
            case .text:
                targets.text += 1
                let path = workspace.path("mutant.jsonl")
                try Data(mutant.bytes).write(to: URL(fileURLWithPath: path))
                run.readText(at: path)
            }
            refusals += run.refusals
            successes += run.successes
            if !run.problems.isEmpty {
                failures.append("seed \(seed) (\(mutant.description)):\n  " + run.problems.joined(separator: "\n  "))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(iterations) mutants failed; rerun one with ACTIONLOG_MUTATION_SEED=<seed> ACTIONLOG_MUTATION_ITERATIONS=1\n\(failures.prefix(20).joined(separator: "\n"))")
        // The run reaches the readers: both files are mutated, and readers both refuse and read (not
        // asked of a run too short to say, such as one mutant made again from its seed).
        if iterations >= 100 {
            #expect(targets.journal > iterations / 4 && targets.text > iterations / 4)
            #expect(refusals > iterations && successes > iterations)
        }
    }

    /// Journal mutants made of bytes (truncations, bit flips, scribbles, insertions) that SQLite's
    /// quick check and `verify` both accept: each must hold the fixture's entries and handler records,
    /// byte for byte as a reader reads them. Before checksums, 8 of the first 2,000 seeds changed an
    /// entry's action or a call and passed; a change the checksums catch is a finding of `verify`.
    static let contentIterations = 2_000

    @Test("every byte mutant of the journal that verify accepts reads as the fixture does")
    func acceptedByteMutantsKeepTheContent() throws {
        let run = MutationRun(environment: "ACTIONLOG_CONTENT_MUTATION", iterations: Self.contentIterations, seed: Self.defaultSeed)
        let directory = try TemporaryDirectory()
        let fixture = try HostileFixture(in: directory)
        let maker = MutantMaker(fixture: fixture, directory: directory)
        let basePath = directory.path("fixture.actionlog")
        try Data(fixture.journal).write(to: URL(fileURLWithPath: basePath))
        let base = try Journal(path: basePath)
        let sessions = try base.sessions().map(\.id)
        let expected = try sessions.map { (try base.entries(in: $0), try base.handlerRecords(in: $0)) }
        var changed: [String] = []
        var (bytes, caught) = (0, 0)
        for index in 0..<run.iterations {
            let seed = run.seed(index)
            let mutant = try maker.mutant(seed: seed)
            // The byte-level ones: "journal truncated at", "journal bits flipped", "journal bytes … scribbled
            // over", "journal: [255] inserted at byte"; not the row edits ("journal: UPDATE …").
            let description = mutant.description
            let byteLevel = ["journal truncated", "journal bits", "journal bytes"].contains { description.hasPrefix($0) }
                || (description.hasPrefix("journal: [") && description.contains("inserted at byte"))
            guard mutant.target == .journal, byteLevel else { continue }
            bytes += 1
            let path = directory.path("content-\(seed).actionlog")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(mutant.bytes).write(to: URL(fileURLWithPath: path))
            guard let journal = try? Journal(path: path), let verification = try? journal.verify() else { continue }
            // Found by the checksums or the file's size alone: a mutant verify passed before them.
            let byChecksums = verification.findings.filter { $0.problem.contains("checksum") || $0.problem.contains("it was cut short") }
            if !byChecksums.isEmpty, byChecksums.count == verification.findings.count { caught += 1 }
            guard verification.isValid else { continue }
            for (id, (entries, handlers)) in zip(sessions, expected) {
                let read = try? journal.entries(in: id)
                let records = try? journal.handlerRecords(in: id)
                if read != entries || records != handlers {
                    changed.append("seed \(seed) (\(mutant.description)): session \(id) reads otherwise, and verify accepts it")
                }
            }
        }
        print("Content mutants: \(bytes) byte mutants of the journal, \(caught) found by checksums or the file's size alone")
        #expect(changed.isEmpty, "\(changed.count) mutants change what a session holds and pass verify:\n\(changed.prefix(20).joined(separator: "\n"))")
        if run.iterations >= 1_000 { #expect(bytes > 100 && caught > 0) }
    }
}
