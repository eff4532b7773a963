import ContextSimCore
import ContextSimReports

/// The app's `NSManagedObject` subclasses: their convenience initialisers, called as
/// `--call 'Journey()'` or from other code, insert an object and run their body with
/// `self` that object; inside, a bare property name is the object's.
extension Drafter {
  /// The entities the files declare as `NSManagedObject` subclasses.
  var entityTypes: Set<String> {
    Set(files.flatMap(\.types).filter(isManagedObjectSubclass).map(\.name))
  }

  /// `Photo(context: c)` or `Journey()`: a type's initialiser that makes an object.
  func isEntityInit(_ call: Call) -> Bool {
    // `Repository(context: c)` of an app type is its `init`, not an entity's.
    call.receiver == nil && call.method.first?.isUppercase == true && !isAppType(call.method)
      && (entityTypes.contains(call.method) || Self.insertContext(of: call) != nil)
  }

  /// The context an initialiser inserts into, under each label Swift has spelt it:
  /// `init(context:)`, `init(entity:insertInto:)`, Swift 2's
  /// `init(entity:insertIntoManagedObjectContext:)`.
  static func insertContext(of call: Call) -> SwiftExpression? {
    call.argument("context") ?? call.argument("insertInto")
      ?? call.argument("insertIntoManagedObjectContext")
  }

  /// An initialiser of `entity` declared in the files (in the class or an extension)
  /// whose parameter labels are `labels`.
  func initializer(of entity: String, labels: [String?]) -> (SwiftFile, SwiftFunction)? {
    for file in files {
      for type in file.types where type.name == entity {
        if let f = type.functions.first(where: {
          $0.name == "init" && $0.parameters.map(\.label) == labels
        }) {
          return (file, f)
        }
      }
    }
    return nil
  }

  /// `Entity(…, context: c)` or, with `context` nil, an initialiser that makes its own
  /// (`self.init(context:)` inside): the insert, then the initialiser's body in place.
  mutating func entityInit(
    _ written: String, call: Call, result: String?, at statement: SwiftStatement
  ) -> [JSONValue]? {
    guard let entity = entityNamed(written) else {
      return notModelled(
        statement, why: "the generic `\(written)` stands for an entity ctxsim cannot name")
    }
    let name = result ?? entity.prefix(1).lowercased() + entity.dropFirst()
    let found = initializer(of: entity, labels: call.arguments.map(\.label))
    var out: [JSONValue] = []
    if let context = Self.insertContext(of: call).flatMap(resolve), case .context(let c) = context,
      found == nil || call.arguments.count == 1
    {
      model.addEntity(entity)
      bind(name, .object(name, entity: entity))
      out.append(
        step(["insert": .string(entity), "into": .string(c), "as": .string(name)], at: statement))
      guard let found, call.arguments.count > 1 else { return out }
      return out + initBody(found, entity: entity, object: name, call: call, at: statement)
    }
    guard let found else { return nil }
    let body = initBody(found, entity: entity, object: name, call: call, at: statement)
    bind(name, .object(name, entity: entity))  // the new object, once its initialiser ran
    return body
  }

  /// The body of an entity's initialiser, `self` the object named `object`, its parameters
  /// bound to the call's arguments.
  private mutating func initBody(
    _ found: (SwiftFile, SwiftFunction), entity: String, object: String, call: Call,
    at statement: SwiftStatement
  ) -> [JSONValue] {
    let (initFile, function) = found
    let savedFile = file
    file = initFile
    defer { file = savedFile }
    // A method's two scopes: the object as `self`, and above it the parameters.
    return inMethodScopes { drafter in
      var out: [JSONValue] = []
      // The arguments are the caller's, computed where the call is.
      for (index, parameter) in function.parameters.enumerated()
      where index < call.arguments.count {
        let argument = call.arguments[index].value
        if let m = drafter.resolve(argument), m.isCoreData {
          drafter.bind(parameter.name, m)
        } else if let v = drafter.value(of: argument) {
          let local = drafter.localName(parameter.name)
          drafter.bind(parameter.name, .value(local))
          out.append(.object(["let": .string(local), "value": v]))
        } else {
          out += drafter.argumentSteps(argument, at: statement)
          let local = drafter.localName(parameter.name)
          drafter.bind(parameter.name, .value(local))
          let standIn = drafter.standIn(for: argument)
          out.append(
            .object([
              "let": .string(local), "value": standIn.json,
              "note": .string("Stood in: \(standIn.what)."),
            ]))
        }
      }
      drafter.bindMember("self", .object(object, entity: entity))
      drafter.currentEntity = (object, entity)
      defer { drafter.currentEntity = nil }
      return out + drafter.steps(function.body ?? [])
    }
  }

  /// `self.init(context: c)`, `super.init(entity: e, insertInto: c)` inside an entity's
  /// initialiser: the insert of `self`.
  mutating func selfInit(_ call: Call, result: String? = nil, at statement: SwiftStatement)
    -> [JSONValue]?
  {
    guard let (object, entity) = currentEntity,
      call.receiver?.source == "self" || call.receiver?.source == "super",
      call.method == "init", let argument = Self.insertContext(of: call),
      case .context(let c)? = resolve(argument)
    else { return nil }
    model.addEntity(entity)
    if let result { bind(result, .object(object, entity: entity)) }  // `let object = self.init(…)`
    return [
      step(["insert": .string(entity), "into": .string(c), "as": .string(object)], at: statement)
    ]
  }

  /// Inside a method of an entity's class, `title` or `self.title` where the class (or an
  /// extension of it) declares `title`, or the model has it (Xcode generates the class):
  /// the object's property, whatever another type calls by the same name. A local or
  /// parameter of that name hides it from a bare `title`.
  func entityProperty(_ target: SwiftExpression) -> (object: String, entity: String, key: String)? {
    guard let (object, entity) = currentEntity, let (key, explicit) = propertyName(target),
      explicit || localMeaning(of: key) == nil
    else { return nil }
    let declared = types[entity]?.properties.contains(where: { $0.name == key }) == true
    return declared || model.has(key, of: entity) ? (object, entity, key) : nil
  }

  /// `note.addToTags(tag)`, the accessor Xcode generates for a to-many relationship, and
  /// `note.mutableSetValue(forKey: "tags").add(tag)`: the relationship read, then set to
  /// what it held and the object added (a list of objects flattens into the set), which
  /// touches the object as Core Data's accessor does and keeps the inverse in step.
  /// Removing (`removeFromTags`) is not drafted: the scenario has no step that takes one
  /// object out of a set.
  mutating func toManyAddSteps(_ call: Call, at statement: SwiftStatement) -> [JSONValue]? {
    var target = call.receiver
    var key: String?
    if call.method.hasPrefix("addTo"), call.method.count > 5 {
      let name = call.method.dropFirst(5)
      key = name.prefix(1).lowercased() + name.dropFirst()
    } else if ["add", "addObject"].contains(call.method),
      let inner = call.receiver.flatMap({ Call($0.unwrapped.expression) }),
      inner.method == "mutableSetValue"
    {
      target = inner.receiver
      key = inner.argument("forKey").flatMap(Self.keyName)
    }
    guard let key, let target, case .object(let name, let entity?)? = resolve(target),
      model.isToMany(key, of: entity), call.arguments.count == 1,
      let added = value(of: call.arguments[0].value)
    else { return nil }
    let held = "_\(name)\(key.prefix(1).uppercased() + key.dropFirst())"
    bind(held, .objects(held, entity: model.destination(ofRelationship: key)))
    return [
      step(["get": .string("\(name).\(key)"), "as": .string(held)], at: statement),
      step(
        ["set": .string("\(name).\(key)"), "to": .array([.string("$" + held), added])],
        at: statement),
    ]
  }
}
