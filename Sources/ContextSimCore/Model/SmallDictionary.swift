/// What a ``SmallDictionary`` holds: a key and its value, as a type of its own per table.
///
/// The entries were tuples, and an array of tuples is copied and freed through the
/// runtime's generic tuple witnesses, element by element and field by field; a concrete
/// struct's witnesses are compiled for it. A run copies and frees these tables all the time.
protocol SmallDictionaryEntry {
  associatedtype Key: Hashable
  associatedtype Item
  var key: Key { get }
  var value: Item { get set }
  init(key: Key, value: Item)
}

/// A dictionary for the few keys one run's tables hold: an object's properties, shared
/// vars, a context's registered IDs, the store's rows.
///
/// A run copies, fills and frees thousands of these, most with a handful of keys. So the
/// entries are kept in an array, in the order their keys were first set, and a key is found
/// by comparing keys: for a few keys that costs less than hashing one, and a copy is one
/// buffer. Past ``scanLimit`` keys it keeps a hashed index of positions too, so a table with
/// thousands of rows is not searched key by key.
///
/// Equality ignores order, as a dictionary's does. Iteration is in insertion order, which
/// no report may depend on any more than it could on a dictionary's.
struct SmallDictionary<Entry: SmallDictionaryEntry>: RandomAccessCollection,
  ExpressibleByDictionaryLiteral
{
  typealias Key = Entry.Key
  typealias Item = Entry.Item
  typealias Element = (key: Key, value: Item)

  private var entries: [Entry] = []
  /// Each key's position in `entries`, kept only past ``scanLimit`` entries.
  private var positions: [Key: Int]?

  /// Entries a lookup scans before a hashed index pays for itself.
  static var scanLimit: Int { 16 }

  init() {}

  init(dictionaryLiteral elements: (Key, Item)...) {
    for (key, value) in elements { self[key] = value }
  }

  /// Each pair set in turn: a later value for a key replaces an earlier one.
  init(_ pairs: [(Key, Item)]) {
    for (key, value) in pairs { self[key] = value }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { entries.count }
  subscript(position: Int) -> Element { (entries[position].key, entries[position].value) }

  /// The keys and the values, in order, read in place as a dictionary's are.
  var keys: LazyMapCollection<[Entry], Key> { entries.lazy.map { $0.key } }
  var values: LazyMapCollection<[Entry], Item> { entries.lazy.map { $0.value } }

  private func position(of key: Key) -> Int? {
    if let positions { return positions[key] }
    return entries.firstIndex { $0.key == key }
  }

  func contains(key: Key) -> Bool { position(of: key) != nil }

  /// Whether a value satisfies `predicate`, read in place: the collection's own
  /// `contains(where:)` copies each entry, key and all.
  func containsValue(where predicate: (Item) -> Bool) -> Bool {
    for i in entries.indices where predicate(entries[i].value) { return true }
    return false
  }

  /// The value under `key`; setting nil removes it.
  subscript(key: Key) -> Item? {
    // Read in place: mapping the position copied the whole entry, key and all, then freed it.
    get {
      guard let i = position(of: key) else { return nil }
      return entries[i].value
    }
    set {
      // The new value is moved out of its optional: matching it in a tuple copied it, and
      // freed the optional through the runtime's generic witness.
      let i = position(of: key)
      switch consume newValue {
      case .some(let value):
        if let i { entries[i].value = value } else { append(key, value) }
      case .none:
        if let i { remove(at: i) }
      }
    }
  }

  /// Adds `key` with no value, for a table used as a set; returns false if it was there.
  mutating func insertKey(_ key: Key) -> Bool where Item == Void {
    guard position(of: key) == nil else { return false }
    append(key, ())
    return true
  }

  /// The value under `key`, added as `defaultValue` first if there is none; changed in place.
  subscript(key: Key, default defaultValue: @autoclosure () -> Item) -> Item {
    get { self[key] ?? defaultValue() }
    _modify {
      let i = position(of: key) ?? append(key, defaultValue())
      yield &entries[i].value
    }
  }

  @discardableResult
  private mutating func append(_ key: Key, _ value: Item) -> Int {
    // Room for four at first, as most tables reach that: growing one entry at a time
    // from one cost an allocation at every doubling.
    if entries.count == entries.capacity {
      entries.reserveCapacity(Swift.max(4, entries.count * 2))
    }
    entries.append(Entry(key: key, value: value))
    let i = entries.count - 1
    if positions != nil {
      positions![key] = i
    } else if entries.count > Self.scanLimit {
      indexPositions()
    }
    return i
  }

  private mutating func remove(at i: Int) {
    entries.remove(at: i)
    if positions != nil { indexPositions() }
  }

  private mutating func indexPositions() {
    guard entries.count > Self.scanLimit else {
      positions = nil
      return
    }
    var index: [Key: Int] = [:]
    index.reserveCapacity(entries.count)
    for (i, entry) in entries.enumerated() { index[entry.key] = i }
    positions = index
  }

  /// Sets each of `other`'s values, keeping the keys `other` does not have.
  mutating func merge(_ other: SmallDictionary) {
    guard !isEmpty else {
      self = other
      return
    }
    for (key, value) in other { self[key] = value }
  }

  /// These values with `other`'s set over them.
  func merging(_ other: SmallDictionary) -> SmallDictionary {
    var merged = self
    merged.merge(other)
    return merged
  }

  func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> SmallDictionary {
    var kept = SmallDictionary()
    for entry in entries where try isIncluded((entry.key, entry.value)) {
      kept.append(entry.key, entry.value)
    }
    return kept
  }

  func mapValues(_ transform: (Item) throws -> Item) rethrows -> SmallDictionary {
    var mapped = self
    for i in entries.indices { mapped.entries[i].value = try transform(entries[i].value) }
    return mapped
  }

  mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }
}

extension SmallDictionary: Sendable where Entry: Sendable, Entry.Key: Sendable {}

extension SmallDictionary: Equatable where Item: Equatable {
  static func == (a: SmallDictionary, b: SmallDictionary) -> Bool {
    a.count == b.count && a.entries.allSatisfy { b[$0.key] == $0.value }
  }
}

extension SmallDictionary where Key: Comparable {
  /// The dictionary's entries in the order of their keys, which its hashing does not change.
  init(_ dictionary: [Key: Item]) {
    for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) { append(key, value) }
  }

  /// The same entries as a dictionary, for the public types that show them.
  var dictionary: [Key: Item] {
    Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
  }
}

/// Values by name: an object's properties, a row's columns, a task group child's bindings.
typealias NamedValues = SmallDictionary<NamedValue>

/// One property, column or binding: its name and its value.
struct NamedValue: SmallDictionaryEntry, Sendable {
  let key: String
  var value: Value
}

/// Numbers by name: a shared var's index, an entity's next primary key.
struct NamedNumber: SmallDictionaryEntry, Sendable {
  let key: String
  var value: Int
}
