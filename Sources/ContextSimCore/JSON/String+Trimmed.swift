extension String {
  /// The text's lines, each without a trailing `\r`: what a file ctxsim reads is made of.
  package var fileLines: [String] {
    split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.hasSuffix("\r") ? $0.dropLast() : $0)
    }
  }

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
