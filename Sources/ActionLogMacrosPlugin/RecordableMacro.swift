import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Recordable` on a service protocol: writes `Recorded<Protocol>`, the wrapper that passes each
/// method through a `RecordedService`, so that its calls are journaled when recording and answered
/// from the journal on replay.
public struct RecordableMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let service = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: Problem.notAProtocol))
            return []
        }
        let name = service.name.text
        let access = accessModifier(of: service.modifiers)
        var methods: [String] = []
        var valid = true
        for member in service.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                context.diagnose(Diagnostic(node: member.decl, message: Problem.notAMethod))
                valid = false
                continue
            }
            switch method(function, access: access) {
            case .success(let text): methods.append(text)
            case .failure(let problem):
                context.diagnose(Diagnostic(node: function.name, message: problem))
                valid = false
            }
        }
        guard valid else { return [] }
        let errors = node.arguments?.as(LabeledExprListSyntax.self)?.first { $0.label?.text == "errors" }?.expression.trimmedDescription ?? "[]"
        let body = methods.map { "\n" + $0 }.joined(separator: "\n")
        return [
            """
            /// `\(raw: name)` with its calls journaled by ActionLog: pass it where the ViewModel takes its
            /// `\(raw: name)`. While a recorder runs the handler, each call goes to `live` and is journaled
            /// with its answer; on replay it is answered from the journal and `live` is never called.
            \(raw: access)struct Recorded\(raw: name): \(raw: name) {
                /// The service the calls go to while recording (and outside any recorded handler).
                \(raw: access)let live: any \(raw: name)
                /// What journals the calls, under the service name `\(raw: name)`.
                \(raw: access)let recorded: RecordedService

                /// Wraps `live`.
                \(raw: access)init(live: any \(raw: name)) {
                    self.live = live
                    self.recorded = RecordedService(\(literal: name), errors: \(raw: errors))
                }
            \(raw: body)
            }
            """
        ]
    }

    /// `public `, `package ` or nothing: the wrapper is as visible as the protocol.
    private static func accessModifier(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            case .keyword(.fileprivate), .keyword(.private): return "fileprivate "
            default: continue
            }
        }
        return ""
    }

    /// The wrapper's implementation of one requirement, or why it cannot have one.
    private static func method(_ function: FunctionDeclSyntax, access: String) -> Result<String, Problem> {
        if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) { return .failure(.staticMethod) }
        if function.genericParameterClause != nil || function.genericWhereClause != nil { return .failure(.generic) }
        let effects = function.signature.effectSpecifiers
        guard effects?.asyncSpecifier != nil, let throwsClause = effects?.throwsClause else { return .failure(.notAsyncThrows) }
        if throwsClause.type != nil { return .failure(.typedThrows) }
        let method = function.name.text
        var parameters: [String] = []
        var arguments: [String] = []
        var passed: [String] = []
        for (index, parameter) in function.signature.parameterClause.parameters.enumerated() {
            if parameter.ellipsis != nil { return .failure(.variadic) }
            if let attributed = parameter.type.as(AttributedTypeSyntax.self),
               attributed.specifiers.contains(where: { $0.trimmedDescription.hasPrefix("inout") }) {
                return .failure(.inout)
            }
            let label = parameter.firstName.text
            let inner = parameter.secondName?.text
            let local = [inner, label].compactMap { $0 }.first { $0 != "_" } ?? "argument\(index)"
            let type = parameter.type.trimmedDescription
            parameters.append(label == local && inner == nil ? "\(local): \(type)" : "\(label) \(local): \(type)")
            arguments.append(local)
            passed.append(label == "_" ? local : "\(label): \(local)")
        }
        let returnType = function.signature.returnClause?.type.trimmedDescription
        let returns = returnType.map { " -> \($0)" } ?? ""
        let journaled = ([#""\#(method)""#] + arguments).joined(separator: ", ")
        return .success("""
                \(access)func \(method)(\(parameters.joined(separator: ", "))) async throws\(returns) {
                    try await recorded.call(\(journaled)) { try await live.\(method)(\(passed.joined(separator: ", "))) }
                }
            """)
    }

    /// Why a protocol or one of its requirements cannot be recorded.
    enum Problem: String, DiagnosticMessage, Error {
        case notAProtocol = "@Recordable goes on a service protocol"
        case notAMethod = "@Recordable records methods only: move properties, initializers and associated types to another protocol"
        case staticMethod = "@Recordable cannot record a static method"
        case generic = "@Recordable cannot record a generic method: its calls are journaled as JSON of concrete types"
        case notAsyncThrows = "@Recordable records `async throws` methods only: on replay the answer comes from the journal, and a call that is not the recorded one throws"
        case typedThrows = "@Recordable records methods that throw `any Error`: on replay a call that is not the recorded one throws a ServiceCallDivergence"
        case variadic = "@Recordable cannot record a variadic parameter"
        case `inout` = "@Recordable cannot record an inout parameter: a recorded call's answer is its return value"

        var message: String { rawValue }
        var diagnosticID: MessageID { MessageID(domain: "ActionLogMacros", id: "\(self)") }
        var severity: DiagnosticSeverity { .error }
    }
}

@main
struct ActionLogMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [RecordableMacro.self]
}
