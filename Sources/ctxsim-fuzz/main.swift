import ContextSim
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// The fuzz target: arbitrary bytes through everything ctxsim does with a scenario.
//
// Built with libFuzzer (see docs/hardening.md) it hands control to the fuzzer's driver,
// found at run time so that a plain `swift build` links too. Built plainly, it runs the
// files it is given once each: a way to replay a crashing input by hand.

typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
typealias RunDriver =
  @convention(c) (
    UnsafeMutablePointer<Int32>,
    UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    TestOneInput
  ) -> Int32

let testOneInput: TestOneInput = { data, size in
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  Exercise.run(bytes)
  return 0
}

if let symbol = dlsym(dlopen(nil, RTLD_NOW), "LLVMFuzzerRunDriver") {
  let driver = unsafeBitCast(symbol, to: RunDriver.self)
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(driver(&argc, &argv, testOneInput))
} else {
  let files = CommandLine.arguments.dropFirst()
  if files.isEmpty {
    FileHandle.standardError.write(
      Data("ctxsim-fuzz: built without libFuzzer; pass input files to run each once\n".utf8))
    exit(64)
  }
  for file in files {
    guard let data = FileManager.default.contents(atPath: file) else {
      FileHandle.standardError.write(Data("ctxsim-fuzz: cannot read \(file)\n".utf8))
      exit(66)
    }
    Exercise.run(Array(data))
    print("ran \(file)")
  }
}
