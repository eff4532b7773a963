import ContextSim

// A fetch on a private context's queue, then the main thread reads the fetched note.
let json = """
  {
    "title": "A note read on the wrong queue",
    "model": {"Note": {"attributes": {"title": "string"}}},
    "store": {"Note": [{"id": "note-1", "title": "Buy milk"}]},
    "contexts": {"background": {"queue": "private"}},
    "main": [
      {"performAndWait": "background", "do": [
        {"fetch": "Note", "in": "background", "first": true, "as": "note"}]},
      {"get": "note.title", "as": "title", "label": "read-on-main"}
    ],
    "expect": {"violations": [{"kind": "wrongQueueObject", "at": "read-on-main"}]}
  }
  """
let scenario = try ScenarioDecoder.decode(Array(json.utf8), file: "note.json")

// One run on the default schedule, as `ctxsim run` does.
var scheduler = RunToCompletionScheduler()
let trace = simulate(scenario, options: SimulationOptions(scenario), scheduler: &scheduler)
for violation in trace.violations {
  print(violation)
}

// Every class of interleavings, held to the scenario's "expect", as `ctxsim check` does.
let result = check(scenario)
print(result.passed ? "holds" : "does not hold: \(result.verdict)")
