extension String {
  /// Word-wrapped to `width` columns, each line starting with `indent`: one paragraph per
  /// line of the text, blank lines kept, a list item's later lines under its first word,
  /// and no trailing spaces.
  func wrapped(width: Int, indent: String) -> [String] {
    var out: [String] = []
    for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
      let marker = paragraph.prefix { $0 != " " }
      let isItem =
        marker == "-" || marker == "*"
        || (marker.hasSuffix(".") && marker.dropLast().allSatisfy(\.isNumber)
          && !marker.dropLast().isEmpty)
      let hanging = indent + (isItem ? String(repeating: " ", count: marker.count + 1) : "")
      var line = indent
      var start = indent
      for word in paragraph.split(separator: " ") {
        if line.count > start.count && line.count + 1 + word.count > width {
          out.append(line)
          line = hanging
          start = hanging
        }
        line += (line.count > start.count ? " " : "") + word
      }
      out.append(line)
    }
    return out.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
