/// One field of the JSON object in a model's answer, as the decoder reads it.
///
/// The flat reader (`FlatJSONObject`) gives text and lists of text as they
/// are, with no `Any` to cast; anything `JSONSerialization` read stays the
/// `Any` it gave, and the decoder casts it as before. `.other` holding a
/// `String` or an `[Any]` of `String`s is read exactly as `.text` or `.texts`.
enum AnswerField {
    /// A JSON string.
    case text(String)
    /// A JSON array whose items are all strings.
    case texts([String])
    /// Any value as `JSONSerialization` gives it.
    case other(Any)
}
