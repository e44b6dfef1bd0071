/// What the TTML writer needs to edit a document in place. (Being written: see the TTML work item.)
struct TTMLPayload: Sendable {}
