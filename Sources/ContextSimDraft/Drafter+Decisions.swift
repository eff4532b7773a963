import ContextSimCore
import ContextSimReports

/// Conditions on values only that the draft cannot decide: `if options.contains(.create)`,
/// `guard FileManager.default.fileExists(atPath: path) else { return }`. What they read is
/// drafted (a `get` of an object's key is judged by the queue rules), and which way each
/// goes is the draft's *path*: ``Draft/paths(_:options:limit:)`` drafts every way, so a run
/// over them all leaves none untaken. A condition that calls the app's own code, or touches
/// a context, is no such condition: it stays a line not modelled.
extension Drafter {
  /// A condition the draft took one way, where it is written.
  struct Decision: Equatable {
    var place: String
    var swift: String
    var holds: Bool
  }

  /// The reads a condition on values makes, and whether it holds on this path (the path's
  /// decision, `Options.decisions`, else true); nil for a condition that is not one on
  /// values only, or when the draft is not one of ``Draft/paths(_:options:limit:)``'s. A
  /// binding (`if let sessions = options.sessions`) binds a stand-in when the condition
  /// holds.
  mutating func decision(
    _ conditions: [SwiftCondition], at statement: SwiftStatement, pass: Int = 1
  )
    -> (reads: [JSONValue], holds: Bool)?
  {
    guard options.decidesValues else { return nil }
    var reads: [PlainRead] = []
    var bindings: [(String, SwiftExpression)] = []
    for condition in conditions {
      switch condition {
      case .expression(let e):
        guard let found = plainReads(in: e) else { return nil }
        reads += found
      case .binding(.name(let name), let value?):
        guard let found = plainReads(in: value) else { return nil }
        reads += found
        bindings.append((name, value))
      default:
        return nil
      }
    }
    // A `while` loop's test, each time round, is a decision of its own.
    let holds = choose(line(of: statement), at: statement, suffix: pass > 1 ? "\(pass)" : nil)
    var steps = reads.map { readStep($0, at: statement) }
    if holds {
      for (name, value) in bindings {
        let standIn = standIn(for: value)
        let local = localName(name)
        bind(name, .value(local))
        steps.append(
          step(
            [
              "let": .string(local), "value": standIn.json,
              "note": .string("Stood in: \(standIn.what); this path takes the `if`."),
            ], at: statement))
      }
    }
    return (steps, holds)
  }
}

extension Drafter {
  /// One way this path goes at `statement` (`suffix` tells several at one line apart): as
  /// `Options.decisions` says, else the first way (true); recorded for ``Draft/paths``. A
  /// place met twice on one path (a method called twice) goes the same way both times: a
  /// simplification docs/draft.md states.
  mutating func choose(_ what: String, at statement: SwiftStatement, suffix: String? = nil)
    -> Bool
  {
    var place = "\(file.name):\(statement.location.line):\(statement.location.column)"
    if let suffix { place += "#" + suffix }
    let holds =
      decisions.first { $0.place == place }?.holds ?? options.decisions[place] ?? true
    if !decisions.contains(where: { $0.place == place }) {
      decisions.append(Decision(place: place, swift: what, holds: holds))
    }
    return holds
  }

  /// `switch inputType { … }` on a value ctxsim cannot decide: each case a path, the first
  /// case on the first; the reads the subject makes first, and what a case's `let` binds a
  /// stand-in. Nil when the subject is not a value (a context, the app's call) or the draft
  /// decides nothing.
  mutating func decidedCase(
    _ subject: SwiftExpression, _ cases: [SwiftSwitchCase], at statement: SwiftStatement,
    steps: inout [JSONValue]
  ) -> SwiftSwitchCase? {
    guard options.decidesValues, let last = cases.last, let reads = plainReads(in: subject)
    else { return nil }
    steps += reads.map { readStep($0, at: statement) }
    var chosen = last
    for (k, c) in cases.dropLast().enumerated() {
      let what = "`switch \(subject.source)` takes `case \(c.patterns.joined(separator: ", "))`"
      if choose(what, at: statement, suffix: "case\(k + 1)") {
        chosen = c
        break
      }
    }
    // `case .success(let stack)`: what the case binds, stood in.
    for pattern in chosen.patterns {
      let words = pattern.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
      for (i, word) in words.enumerated() where word == "let" && i + 1 < words.count {
        steps.append(
          standInValue(
            String(words[i + 1]), what: "what `case \(pattern)` binds", at: statement))
      }
    }
    return chosen
  }

  /// How many times round a `while` loop is drafted, at most.
  static let whileUnrolling = 2

  /// `while !queue.isEmpty { … }` on values only: each test is a decision of its own, so
  /// the paths run the body 0, 1 and 2 times; a path on which the test holds a third time
  /// passes a line not modelled. A test that is not on values only is not modelled.
  mutating func whileSteps(
    _ conditions: [SwiftCondition], _ body: [SwiftStatement], at statement: SwiftStatement
  ) -> [JSONValue] {
    var out: [JSONValue] = []
    for pass in 1...(Self.whileUnrolling + 1) {
      guard let (reads, holds) = decision(conditions, at: statement, pass: pass) else {
        return out + notModelled(statement)
      }
      out += reads
      guard holds else { return out }
      guard pass <= Self.whileUnrolling else {
        let why =
          "a `while` loop that goes round more than \(Self.whileUnrolling) times is not modelled"
        return out + notModelled(statement, why: why)
      }
      out += scoped { $0.steps(body) }
    }
    return out
  }
}

extension Draft {
  /// A condition on values only that the draft could not decide, and the way this path
  /// takes it.
  public struct Decision: Sendable, Equatable {
    /// `Store.swift:14:9`.
    public var place: String
    /// The line as written.
    public var swift: String
    /// Whether the condition holds on this path.
    public var holds: Bool
  }

  /// Every path through the conditions on values only that a draft cannot decide, each
  /// a draft of its own, the first taking each condition as holding.
  ///
  /// Paths are found as a concolic tester finds them: each draft lists the conditions it
  /// met; for each one it took by default, the same decisions before it and the other way
  /// at it make a new path. At most `limit` are drafted; when more remain, `complete` is
  /// false and one more draft is added in which such conditions are lines not modelled,
  /// so the paths not drafted keep a run over them all from being called clean.
  public static func paths(_ sources: [Source], options: Options = Options(), limit: Int = 16)
    -> (drafts: [Draft], complete: Bool)
  {
    paths(parsed: parse(sources), options: options, limit: limit)
  }

  /// ``paths(_:options:limit:)`` of files already read.
  static func paths(parsed sources: SwiftModule, options: Options, limit: Int)
    -> (drafts: [Draft], complete: Bool)
  {
    var options = options
    options.decidesValues = true
    var drafts: [Draft] = []
    var pending: [[String: Bool]] = [options.decisions]
    var queued: Set<[String: Bool]> = [options.decisions]
    while !pending.isEmpty {
      guard drafts.count < limit else {
        var undecided = options
        undecided.decidesValues = false
        return (drafts + [Draft(parsed: sources, options: undecided)], false)
      }
      let decisions = pending.removeFirst()
      var path = options
      path.decisions = decisions
      let draft = Draft(parsed: sources, options: path)
      drafts.append(draft)
      if drafts.count == 1, draft.decisions.count > Self.mostDecisions {
        // A whole module calls every method and meets scores of conditions: `limit` paths
        // would flip a few of them and cover nothing, so only the first is drafted.
        var undecided = options
        undecided.decidesValues = false
        return (drafts + [Draft(parsed: sources, options: undecided)], false)
      }
      var taken = decisions
      for decision in draft.decisions {
        if decisions[decision.place] == nil {
          var other = taken
          other[decision.place] = !decision.holds
          if queued.insert(other).inserted { pending.append(other) }
        }
        taken[decision.place] = decision.holds
      }
    }
    return (drafts, true)
  }

  /// The most conditions a first path may meet for the others to be drafted: more than
  /// this many, and sixteen paths would cover too little of them to be worth the time.
  static let mostDecisions = 8

  /// The decisions of this path in words, for a summary: `Store.swift:14:9 holds`.
  public var pathDescription: String {
    decisions.map { "\($0.place) \($0.holds ? "holds" : "does not hold")" }
      .joined(separator: ", ")
  }
}
