extension Array {
  /// Removes every element and keeps the storage for the next fill.
  ///
  /// The standard `removeAll(keepingCapacity: true)` takes its general path, about a
  /// hundred instructions, even on an empty array. A run empties lists at almost every step
  /// (a step's accesses, a thread's queues and frames, a var's reads), and most of them are
  /// already empty.
  mutating func removeAllKeepingCapacity() {
    if !isEmpty { removeAll(keepingCapacity: true) }
  }
}
