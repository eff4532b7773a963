extension Array where Element: Comparable {
  /// Sorts the array and keeps one of each run of equal elements, in place: what a `Set`
  /// and `sorted()` give, without hashing, in the search's inner loops.
  mutating func sortAndRemoveDuplicates() {
    sort()
    var unique = 0
    for i in indices where unique == 0 || self[i] != self[unique - 1] {
      self[unique] = self[i]
      unique += 1
    }
    removeLast(count - unique)
  }
}
