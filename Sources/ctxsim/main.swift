import Foundation

exit(Ctxsim.main(Array(CommandLine.arguments.dropFirst()), console: .standard))
