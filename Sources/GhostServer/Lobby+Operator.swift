/// The operator's requests to a running daemon (OperatorInbox.swift).
extension Lobby {
    /// Applies an operator's action as one unit of the store and the
    /// outbox, as a client's command is (`RecoveryDesk.runCommand`): if its
    /// write fails, what it wrote and sent is undone and the daemon goes on.
    /// The text for the operator, or why nothing was done.
    func applyOperatorRequest(_ action: OperatorAction) -> Result<String, OperatorRefusal> {
        var text = ""
        recovery.runCommand {
            do {
                text = try apply(action)
            } catch {
                context.storeFailed(error)
            }
        }
        if let failure = recovery.recovery.failure {
            return .failure("the daemon could not store it (\(failure)); nothing changed")
        }
        return .success(text)
    }
}
