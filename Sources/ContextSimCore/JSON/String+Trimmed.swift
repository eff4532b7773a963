extension String {
  /// Without leading and trailing spaces and newlines.
  package var trimmed: String {
    var scalars = unicodeScalars[...]
    while let first = scalars.first, first == " " || first == "\n" || first == "\t" {
      scalars.removeFirst()
    }
    while let last = scalars.last, last == " " || last == "\n" || last == "\t" {
      scalars.removeLast()
    }
    return String(scalars)
  }
}
