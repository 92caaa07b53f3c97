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
}
