// One import for everything ctxsim's library offers; each layer is its own target.
@_exported import ContextSimCore
@_exported import ContextSimDSL
@_exported import ContextSimDraft
@_exported import ContextSimReports
@_exported import ContextSimTeaching
