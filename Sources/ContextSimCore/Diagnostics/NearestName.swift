/// The known name closest to a misspelt one, if any is close enough to be a likely typo.
public func nearestName(to name: String, in candidates: [String]) -> String? {
  let lowered = name.lowercased()
  var best: (name: String, distance: Int)?
  for candidate in candidates {
    let distance = editDistance(lowered, candidate.lowercased())
    if best == nil || distance < best!.distance {
      best = (candidate, distance)
    }
  }
  guard let best else { return nil }
  let allowed = max(1, min(3, (name.count + 1) / 3))
  return best.distance <= allowed ? best.name : nil
}

/// Edit distance over characters, counting a swap of two neighbours as one edit, the
/// commonest typo (`titel` for `title`).
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { d[i][0] = i }
  for j in 0...b.count { d[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
      }
    }
  }
  return d[a.count][b.count]
}
