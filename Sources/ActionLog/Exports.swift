// The JSON layer (values, canonical text, pointers, patches) is a target of its own, below the journal;
// `import ActionLog` brings it, as it did when it was a folder of this one.
@_exported import ActionLogJSON
