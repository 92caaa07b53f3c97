/// ActionLog journals every action a store dispatches, and the state it produced, to an SQLite file.
///
/// Start with ``Recorder`` to record, ``Journal`` to read, and the `Replayer` module to re-drive a
/// reducer through a recorded session.
public enum ActionLog {
    /// This library's version, stored with every session it records.
    public static let version = "0.1.0"
}
