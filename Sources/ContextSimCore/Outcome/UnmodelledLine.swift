/// A line of the app's Swift that a run passed without modelling it: where it is written,
/// the line itself, and why ctxsim could not model it.
///
///     Store.swift:14:9  manager.saveAll()
///       a call ctxsim cannot resolve: saveAll() is declared in no file read
public struct UnmodelledLine: Sendable, Equatable {
  /// Where the line is written, `Store.swift:14:9`, or the step's label or path when the
  /// scenario does not say.
  public var place: String
  /// The line as written.
  public var swift: String
  /// Why it is not modelled.
  public var why: String
  /// The `notModelled` step, by its index in ``Scenario/allSteps``.
  public var stepIndex: Int

  /// The line a `notModelled` step stands for; nil for a step of another verb.
  public init?(_ step: Step) {
    guard case .notModelled(let why, let at) = step.action else { return nil }
    place = at ?? step.label ?? step.path
    swift = step.source ?? step.statement
    self.why = why
    stepIndex = step.index
  }

  /// The line of a step a run passed without modelling: a `notModelled` step's, or, for a
  /// step of another verb the run could not take (one naming a context the run never made,
  /// its `newContext` skipped by a `"when"`), that step's.
  public init(passed step: Step) {
    self = UnmodelledLine(step) ?? UnmodelledLine(unmade: step)
  }

  private init(unmade step: Step) {
    place = step.label ?? step.path
    swift = step.source ?? step.statement
    why = "it names a context this run never made: the step that makes it did not run"
    stepIndex = step.index
  }
}

extension Trace {
  /// The lines of `scenario` this run passed without modelling them, each once, in the order
  /// first passed.
  public func unmodelledLines(in scenario: Scenario) -> [UnmodelledLine] {
    unmodelled.map { UnmodelledLine(passed: scenario.allSteps[$0.stepIndex]) }
  }
}

extension Scenario {
  /// Every line of the app's Swift the scenario does not model, run or not, in file order.
  public var unmodelledLines: [UnmodelledLine] { allSteps.compactMap(UnmodelledLine.init) }
}
