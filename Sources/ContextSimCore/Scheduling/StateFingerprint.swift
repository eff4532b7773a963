/// A run's state in 128 bits: two runs with the same fingerprint have the same future.
///
/// A stateful search keeps one per state it has visited instead of the state itself. Two
/// different states share a fingerprint only by a hash collision: with ten million states
/// the chance is about 10⁻²⁵, which is why the search may treat equal fingerprints as equal
/// states.
struct StateFingerprint: Hashable, Sendable {
  let first: UInt64
  let second: UInt64

  /// This fingerprint together with a number, such as a thread's.
  func with(_ n: Int) -> StateFingerprint {
    StateFingerprint(
      first: first ^ (UInt64(truncatingIfNeeded: n + 1) &* 0x9E37_79B9_7F4A_7C15), second: second)
  }
}

/// Folds a state, one 64-bit word at a time, into 128 bits (MurmurHash3's x64 128-bit
/// mixing, one word per block).
///
/// Swift's `Hasher` gives 64 bits, and a search hashing every state twice spent most of its
/// time there; strings go in by their bytes.
struct FingerprintHasher {
  private var h1: UInt64 = 0x243F_6A88_85A3_08D3
  private var h2: UInt64 = 0x1319_8A2E_0370_7344
  private var words: UInt64 = 0

  mutating func combine(_ word: UInt64) {
    let c1: UInt64 = 0x87C3_7B91_1142_53D5
    let c2: UInt64 = 0x4CF5_AD43_2745_937F
    var k1 = word &* c1
    k1 = (k1 << 31 | k1 >> 33) &* c2
    h1 ^= k1
    h1 = (h1 << 27 | h1 >> 37) &+ h2
    h1 = h1 &* 5 &+ 0x52DC_E729
    var k2 = word &* c2
    k2 = (k2 << 33 | k2 >> 31) &* c1
    h2 ^= k2
    h2 = (h2 << 31 | h2 >> 33) &+ h1
    h2 = h2 &* 5 &+ 0x3849_5AB5
    words &+= 1
  }

  mutating func combine(_ n: Int) { combine(UInt64(bitPattern: Int64(n))) }
  mutating func combine(_ b: Bool) { combine(b ? 1 : 2 as UInt64) }
  mutating func combine(_ d: Double) { combine(d.bitPattern) }
  /// A string by its UTF-8 bytes, eight at a time, and its length: the same in every
  /// process, and a few rounds for the short names a state holds, where `hashValue` runs a
  /// seeded SipHash each time.
  mutating func combine(_ s: String) {
    let done: Void? = s.utf8.withContiguousStorageIfAvailable { combine(bytes: $0) }
    if done == nil { Array(s.utf8).withUnsafeBufferPointer { combine(bytes: $0) } }
  }

  private mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
    combine(bytes.count)
    let raw = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset + 8 <= raw.count {
      combine(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    guard offset < raw.count else { return }
    // The last one to seven bytes, the first lowest: copied into a zeroed word rather than
    // shifted in one at a time, since most names a state holds are that short.
    var word: UInt64 = 0
    withUnsafeMutableBytes(of: &word) {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
    }
    combine(UInt64(littleEndian: word))
  }
  mutating func combine(_ s: String?) {
    if let s { combine(s) } else { combine(0x5EED as UInt64) }
  }
  /// An optional number: nil differs from every number.
  mutating func combine(_ n: Int?) {
    if let n {
      combine(1)
      combine(n)
    } else {
      combine(0)
    }
  }
  mutating func combine(_ numbers: [Int]) {
    combine(numbers.count)
    for n in numbers { combine(n) }
  }

  func finalize() -> StateFingerprint {
    var a = h1 ^ words
    var b = h2 ^ words
    a &+= b
    b &+= a
    a = Self.mix(a)
    b = Self.mix(b)
    a &+= b
    b &+= a
    return StateFingerprint(first: a, second: b)
  }

  private static func mix(_ k: UInt64) -> UInt64 {
    var k = k
    k ^= k >> 33
    k &*= 0xFF51_AFD7_ED55_8CCD
    k ^= k >> 33
    k &*= 0xC4CE_B9FE_1A85_EC53
    k ^= k >> 33
    return k
  }
}
