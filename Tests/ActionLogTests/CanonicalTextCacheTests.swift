import Foundation
import Testing
@testable import ActionLog

@Suite("Writer: action and effect texts remembered by their bytes")
struct CanonicalTextCacheTests {
    enum Plain: Codable, Equatable, Sendable { case increment, set(index: Int, quantity: Int), scale(Double, flag: Bool) }
    enum Text: Codable, Equatable, Sendable { case query(String) }

    /// Encodes to a different text each time: only a type that holds a reference can tell.
    final class Ticker: Encodable, Sendable {
        let ticks = AtomicCounter()
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(ticks.next())
        }
    }

    @Test("the remembered text of plain data is the text a fresh encode gives")
    func plainData() throws {
        let cache = CanonicalTextCache<Plain>()
        let context = EncodingContext(tracking: false, userInfo: [:])
        let actions: [Plain] = [.increment, .set(index: 3, quantity: 2), .scale(-0.0, flag: true), .scale(1e-7, flag: false), .set(index: -1, quantity: Int.max)]
        for _ in 0..<3 {
            for action in actions {
                #expect(try cache.string(of: action, encoder: context) == JSONValueEncoder().encode(action).canonicalText)
            }
        }
        #expect(cache.remembered == actions.count)
    }

    @Test("values holding references (strings, objects) are encoded every time")
    func references() throws {
        let context = EncodingContext(tracking: false, userInfo: [:])
        let texts = CanonicalTextCache<Text>()
        #expect(try texts.string(of: .query("par"), encoder: context) == #"{"query":{"_0":"par"}}"#)
        #expect(try texts.string(of: .query("par"), encoder: context) == #"{"query":{"_0":"par"}}"#)
        #expect(texts.remembered == 0)

        let ticker = Ticker()
        let tickers = CanonicalTextCache<Ticker>()
        #expect(try tickers.string(of: ticker, encoder: context) == "1")
        #expect(try tickers.string(of: ticker, encoder: context) == "2")
    }

    @Test("a value whose encode throws throws every time and is not remembered")
    func failures() {
        let cache = CanonicalTextCache<Double>()
        let context = EncodingContext(tracking: false, userInfo: [:])
        for _ in 0..<2 { #expect(throws: EncodingError.self) { try cache.string(of: .nan, encoder: context) } }
        #expect(cache.remembered == 0)
    }

    @Test("past its capacity the cache forgets and keeps giving the right texts")
    func capacity() throws {
        let cache = CanonicalTextCache<Plain>()
        let context = EncodingContext(tracking: false, userInfo: [:])
        for index in 0..<(CanonicalTextCache<Plain>.capacity + 50) {
            #expect(try cache.string(of: .set(index: index, quantity: 1), encoder: context) == #"{"set":{"index":\#(index),"quantity":1}}"#)
            #expect(cache.remembered <= CanonicalTextCache<Plain>.capacity)
        }
    }
}

/// A counter that can be shared between threads.
final class AtomicCounter: Sendable {
    private let value = Locked(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}

extension CanonicalTextCache {
    /// The remembered or encoded text, as a string to compare.
    fileprivate func string(of value: Value, encoder: EncodingContext) throws -> String {
        String(decoding: try text(of: value, encoder: encoder), as: UTF8.self)
    }
}
