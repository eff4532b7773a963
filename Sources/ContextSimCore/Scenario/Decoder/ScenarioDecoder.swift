/// Turns a scenario file's bytes into a validated ``Scenario``, or into every error it has.
///
/// Two stages: JSON → ``RawScenario``, the shape pass (known keys, values of the right JSON
/// type, one verb per step with only its keys; ``StepShape`` and ``SectionShape``) →
/// ``Scenario``, one validation pass over the raw form in file order: the model, store,
/// contexts, queues and vars, then the steps with the scope of `$variables`, then `expect`
/// and `inject`, every name checked against what is declared. Each verb family under
/// `Verbs/` declares its part of both stages. Shape problems are kept in the raw form and
/// reported when validation reaches them, so a part never reached (the steps of a block
/// whose context is unknown) reports nothing, as in format v1. Errors are collected, not
/// thrown at the first, so a file with three typos gets three messages.
public struct ScenarioDecoder: ProblemLog {
  let file: String
  var errors: [Diagnostic] = []
  var entities: [Entity] = []
  var contexts: [ContextDescription] = [.viewContext]
  var queues: [QueueDescription] = []
  var sharedVars: [String] = []
  var labels: [String: SourceLocation] = [:]
  /// Every label written on a step. One that no valid step carries belongs to a step that
  /// failed, already reported, so `expect` and `inject` do not report it again.
  var writtenLabels: Set<String> = []
  var stepCount = 0
  /// The store's history options, read before the steps, which depend on them.
  var persistentHistory = PersistentHistoryOptions()
  /// How a `"model"` that names an Xcode data model is read; without it, one cannot be.
  var dataModels: DataModelFiles?

  /// Decodes one scenario file.
  ///
  /// - Parameters:
  ///   - file: the name errors and reports use for the file, usually its path.
  ///   - dataModels: how a `"model"` naming an `.xcdatamodeld` is read, relative to the
  ///     scenario's folder; without it, such a scenario is an error and nothing is read.
  public static func decode(
    _ bytes: [UInt8], file: String, maximumDepth: Int = JSONReader.defaultMaximumDepth,
    dataModels: DataModelFiles? = nil
  ) throws(Diagnostics) -> Scenario {
    let json: JSONValue
    do {
      json = try JSONReader.read(bytes, maximumDepth: maximumDepth)
    } catch {
      throw Diagnostics([
        Diagnostic(
          file: file, location: error.location, path: nil, message: error.message, fix: error.fix,
          bound: error.bound)
      ])
    }
    return try validate(json, file: file, dataModels: dataModels)
  }

  init(file: String) {
    self.file = file
  }

  // MARK: The file

  /// Reads a scenario's JSON for its shape, then validates it, reporting every problem in it.
  ///
  /// Files come here through ``decode(_:file:maximumDepth:dataModels:)``; ``ScenarioBuilder``
  /// makes the JSON itself, with its own places and file name.
  package static func validate(
    _ json: JSONValue, file: String, dataModels: DataModelFiles? = nil
  ) throws(Diagnostics) -> Scenario {
    var decoder = ScenarioDecoder(file: file)
    let reads = DataModelFiles.Reads()
    decoder.dataModels = dataModels.map { reads.recording($0) }
    let scenario = decoder.validate(RawScenario(json, file: file))
    guard decoder.errors.isEmpty, var scenario else {
      // The scenario's own problems first, then those of a data model it names, each in
      // file order.
      throw Diagnostics(
        decoder.errors.sorted {
          ($0.file == file ? 0 : 1, $0.location ?? .init(line: 0, column: 0))
            < ($1.file == file ? 0 : 1, $1.location ?? .init(line: 0, column: 0))
        })
    }
    // Decoded again, a scenario reads its data model from what this decoding read.
    let files = dataModels.map { reads.replaying(in: $0.directory) }
    scenario.remake = { try? validate(json, file: file, dataModels: files?()) }
    return scenario
  }

  mutating func validate(_ raw: RawScenario) -> Scenario? {
    errors += raw.problems
    guard raw.isObject else { return nil }
    var title = ""
    if raw.title.isAbsent {
      fail(
        "the scenario has no \"title\"", fix: "add \"title\": \"one line saying what it shows\"",
        at: raw.location, path: nil)
    }
    title = read(raw.title)?.value ?? title
    let about = read(raw.about)?.value
    let concurrencyDebug = read(raw.concurrencyDebug)?.value ?? true
    if let history = read(raw.persistentHistory)?.value {
      errors += history.problems
      persistentHistory = PersistentHistoryOptions(
        tracking: read(history.tracking)?.value ?? false,
        remoteChangeNotifications: read(history.remoteChangeNotifications)?.value ?? false)
    }

    if let path = read(raw.modelFile) {
      // Without the model, every entity a step names would be an error of its own.
      guard validateModel(named: path) else { return nil }
    } else {
      validateModel(raw.model)
    }
    let rows = validateStore(raw.store)
    validateContexts(raw.contexts)
    validateQueues(raw.queues)
    let vars = validateVars(raw.vars)

    writtenLabels = raw.writtenLabels
    if raw.main.isAbsent {
      fail(
        "the scenario has no \"main\"",
        fix: "add \"main\": [ … ], the steps the main thread runs at launch", at: raw.location,
        path: nil)
    }
    var scope = StepScope()
    let main = validateSteps(raw.main, scope: &scope, enclosingLabels: [])
    let expectation = validateExpectation(raw.expect)
    let injections = validateInjections(raw.inject)

    var scenario = Scenario(
      file: file, title: title, about: about, concurrencyDebug: concurrencyDebug,
      entities: entities, storeRows: rows, contexts: contexts, queues: queues, vars: vars,
      main: main, expectation: expectation)
    scenario.injections = injections
    scenario.persistentHistory = persistentHistory
    scenario.initialStore = PersistentStore(rows: rows, entities: entities)
    scenario.allSteps = Scenario.flatten(main)
    scenario.features = Scenario.Features(scenario)
    scenario.interchangeable = InterchangeableValues(scenario)
    scenario.storeIdentifier = uuid(hashing: "store " + title)
    scenario.temporaryIdentifier = uuid(hashing: "temporary " + title)
    return scenario
  }
}

func isIdentifier(_ name: String) -> Bool {
  guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic
  else { return false }
  return name.unicodeScalars.allSatisfy {
    $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
  }
}
