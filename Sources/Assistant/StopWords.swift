/// Stop words: the common words of a language that say nothing about what
/// a video is about (articles, pronouns, prepositions, conjunctions, forms of
/// "be" and "have", greetings), by language (ISO 639-1 code).
///
/// Written for this project by its authors (not taken from another list),
/// under the project's own licence; they cover English and the languages of
/// the model-bench transcripts (`scripts/model-bench/transcripts/`: German,
/// Spanish, French, Italian, Japanese, Portuguese). Words are lower case, as
/// the word rule cuts them (`it's` is one word). The fallback's keywords and
/// titles leave them out (`LocalFallback`), and the keyword candidates offered
/// to a model never take one (`KeywordCandidates`). Keep each language's
/// list between its `"xx": [` line and the next `],`: scripts may read them
/// from this file.
public enum StopWords {
    /// The stop words of each language.
    public static let byLanguage: [String: Set<String>] = [
        "en": [  // English
            "a", "about", "above", "across", "actually", "after", "again", "against", "ago", "ah", "all", "almost",
            "along", "already", "alright", "also", "although", "always", "am", "among", "an", "and", "another", "any",
            "anybody", "anyone", "anything", "anyway", "are", "aren't", "around", "as", "at", "away", "back", "be",
            "became", "because", "become", "been", "before", "behind", "being", "below", "beside", "besides", "best",
            "better", "between", "beyond", "both", "but", "by", "came", "can", "can't", "cannot", "come", "could",
            "couldn't", "did", "didn't", "do", "does", "doesn't", "doing", "don't", "done", "down", "during", "each",
            "eight", "either", "else", "enough", "even", "ever", "every", "everybody", "everyone", "everything",
            "except", "far", "few", "first", "five", "for", "four", "from", "further", "get", "gets", "getting", "go",
            "goes", "going", "gone", "gonna", "good", "got", "gotta", "great", "had", "hadn't", "has", "hasn't",
            "have", "haven't", "having", "he", "he'd", "he'll", "he's", "hello", "her", "here", "here's", "hers",
            "herself", "hey", "hi", "him", "himself", "his", "how", "how's", "however", "hundred", "i", "i'd", "i'll",
            "i'm", "i've", "if", "in", "inside", "instead", "into", "is", "isn't", "it", "it'd", "it'll", "it's",
            "its", "itself", "just", "kind", "know", "last", "less", "let", "let's", "like", "little", "look", "lot",
            "lots", "made", "make", "makes", "making", "many", "may", "maybe", "me", "might", "mine", "more", "most",
            "much", "must", "my", "myself", "need", "needs", "never", "new", "next", "nine", "no", "nobody", "none",
            "nor", "not", "nothing", "now", "of", "off", "oh", "ok", "okay", "on", "once", "one", "ones", "only",
            "onto", "or", "other", "others", "otherwise", "our", "ours", "ourselves", "out", "over", "own", "per",
            "perhaps", "please", "pretty", "quite", "rather", "really", "right", "said", "same", "say", "says", "see",
            "seem", "seems", "seven", "shall", "she", "she'd", "she'll", "she's", "should", "shouldn't", "since",
            "six", "so", "some", "somebody", "someone", "something", "sometimes", "somewhere", "soon", "still",
            "such", "sure", "take", "taken", "takes", "ten", "than", "thank", "thanks", "that", "that's", "the",
            "their", "theirs", "them", "themselves", "then", "there", "there's", "these", "they", "they'd", "they'll",
            "they're", "they've", "thing", "things", "think", "this", "those", "though", "thousand", "three",
            "through", "thus", "till", "time", "to", "today", "together", "tomorrow", "tonight", "too", "toward",
            "towards", "two", "under", "unless", "until", "up", "upon", "us", "used", "very", "via", "want", "wants",
            "was", "wasn't", "way", "we", "we'd", "we'll", "we're", "we've", "welcome", "well", "went", "were",
            "weren't", "what", "what's", "whatever", "when", "when's", "where", "where's", "whether", "which",
            "while", "who", "who's", "whole", "whom", "whose", "why", "will", "with", "within", "without", "won't",
            "would", "wouldn't", "yeah", "yes", "yet", "you", "you'd", "you'll", "you're", "you've", "your", "yours",
            "yourself", "yourselves",
        ],
        "de": [  // German
            "abend", "aber", "alle", "allem", "allen", "aller", "alles", "als", "also", "am", "an", "ander", "andere",
            "anderen", "anderer", "anderes", "auch", "auf", "aus", "bei", "beim", "bin", "bis", "bist", "bitte", "da",
            "dabei", "dadurch", "dafür", "dagegen", "daher", "damit", "danke", "dann", "daran", "darauf", "darum",
            "das", "dass", "dazu", "dein", "deine", "dem", "den", "denen", "denn", "der", "deren", "des", "deshalb",
            "dich", "die", "dies", "diese", "diesem", "diesen", "dieser", "dieses", "dir", "doch", "dort", "drei",
            "du", "durch", "ein", "eine", "einem", "einen", "einer", "eines", "einfach", "er", "es", "etwa", "etwas",
            "euch", "euer", "eure", "fünf", "für", "gab", "ganz", "gar", "gegen", "gehabt", "geht", "gewesen", "gibt",
            "gut", "guten", "habe", "haben", "hallo", "hat", "hatte", "hatten", "heute", "hier", "hin", "hinter",
            "ich", "ihm", "ihn", "ihnen", "ihr", "ihre", "ihrem", "ihren", "ihrer", "ihres", "im", "immer", "in",
            "ins", "ist", "ja", "jede", "jedem", "jeden", "jeder", "jedes", "jetzt", "kann", "kannst", "kein",
            "keine", "keinem", "keinen", "keiner", "können", "könnte", "machen", "macht", "mal", "man", "manche",
            "mehr", "mein", "meine", "meinem", "meinen", "meiner", "mich", "mir", "mit", "morgen", "muss", "müssen",
            "nach", "nein", "nicht", "nichts", "noch", "nun", "nur", "ob", "oder", "ohne", "schon", "sechs", "sehr",
            "sein", "seine", "seinem", "seinen", "seiner", "seit", "sich", "sie", "sind", "so", "soll", "sollte",
            "sondern", "sowie", "um", "und", "uns", "unser", "unsere", "unter", "viel", "viele", "vier", "vom", "von",
            "vor", "wann", "war", "waren", "warum", "was", "weil", "weiter", "welche", "welchem", "welchen",
            "welcher", "welches", "wenn", "wer", "werden", "wie", "wieder", "will", "willkommen", "wir", "wird", "wo",
            "wurde", "wurden", "zu", "zum", "zur", "zwei", "zwischen", "über",
        ],
        "es": [  // Spanish
            "a", "ahora", "al", "algo", "alguna", "algunas", "alguno", "algunos", "algún", "allí", "ante", "antes",
            "aquí", "así", "aunque", "bien", "bienvenida", "bienvenido", "bienvenidos", "buenas", "bueno", "cada",
            "casi", "cinco", "como", "con", "contra", "cual", "cuando", "cuatro", "de", "del", "desde", "donde",
            "dos", "día", "días", "el", "ella", "ellas", "ello", "ellos", "en", "entonces", "entre", "era", "eran",
            "es", "esa", "esas", "ese", "eso", "esos", "esta", "estaba", "estamos", "estar", "estas", "este", "esto",
            "estos", "estoy", "está", "están", "fue", "fueron", "gracias", "ha", "había", "hace", "hacen", "hacer",
            "hacia", "han", "hasta", "hay", "hola", "la", "las", "le", "les", "lo", "los", "me", "mi", "mis", "mucho",
            "muchos", "muy", "más", "nada", "ni", "no", "nos", "nosotros", "nuestra", "nuestras", "nuestro",
            "nuestros", "o", "otra", "otras", "otro", "otros", "para", "pero", "poco", "por", "porque", "pues", "que",
            "quien", "quienes", "qué", "se", "sea", "según", "seis", "ser", "si", "sido", "siempre", "sin", "sobre",
            "solo", "son", "su", "sus", "sí", "también", "tan", "tanto", "tarde", "te", "tenemos", "tener", "tiene",
            "tienen", "todo", "todos", "tres", "tu", "tus", "tú", "un", "una", "unas", "uno", "unos", "usted",
            "ustedes", "va", "vamos", "y", "ya", "yo",
        ],
        "fr": [  // French
            "ai", "aie", "alors", "as", "au", "aucun", "aujourd'hui", "aussi", "autre", "autres", "aux", "avait",
            "avant", "avec", "avez", "avoir", "avons", "bien", "bienvenue", "bon", "bonjour", "c'est", "car", "ce",
            "ceci", "cela", "celle", "celles", "celui", "ces", "cet", "cette", "chaque", "chez", "ci", "cinq",
            "comme", "comment", "d'un", "d'une", "dans", "de", "depuis", "des", "deux", "donc", "dont", "du", "elle",
            "elles", "en", "encore", "entre", "es", "est", "et", "eu", "eux", "faire", "fais", "fait", "font", "il",
            "ils", "j'ai", "jamais", "je", "juste", "l'on", "la", "le", "les", "leur", "leurs", "lui", "ma", "mais",
            "me", "merci", "mes", "moi", "mon", "même", "n'est", "ne", "ni", "non", "nos", "notre", "nous", "on",
            "ont", "ou", "où", "par", "parce", "pas", "peu", "peut", "peuvent", "plus", "pour", "pourquoi", "qu'elle",
            "qu'il", "quand", "quatre", "que", "quel", "quelle", "quelles", "quels", "qui", "quoi", "sa", "sans",
            "se", "ses", "si", "six", "son", "sont", "sous", "sur", "ta", "te", "tes", "toi", "ton", "tous", "tout",
            "toute", "toutes", "trois", "très", "tu", "un", "une", "vers", "voici", "voilà", "vos", "votre", "vous",
            "y", "à", "ça", "étaient", "était", "été", "être",
        ],
        "it": [  // Italian
            "a", "abbiamo", "ad", "agli", "ai", "al", "alla", "alle", "allo", "anche", "ancora", "avere", "aveva",
            "benvenuti", "buongiorno", "c'è", "che", "chi", "ci", "cinque", "come", "con", "cosa", "così", "cui",
            "da", "dagli", "dai", "dal", "dalla", "dalle", "degli", "dei", "del", "della", "delle", "dello", "di",
            "dove", "due", "e", "ecco", "era", "erano", "essere", "fa", "fare", "gli", "grazie", "ha", "hanno", "ho",
            "i", "il", "in", "io", "la", "le", "lei", "li", "lo", "loro", "lui", "ma", "me", "mi", "mia", "mio",
            "molto", "ne", "nei", "nel", "nella", "nelle", "nello", "no", "noi", "non", "nostra", "nostro", "o",
            "oggi", "ogni", "per", "perché", "più", "poi", "proprio", "qua", "quale", "quali", "quando", "quanto",
            "quattro", "quella", "quelle", "quelli", "quello", "questa", "queste", "questi", "questo", "qui", "se",
            "sei", "sempre", "si", "sia", "siamo", "sono", "sta", "stato", "su", "sua", "sue", "sui", "sul", "sulla",
            "suo", "suoi", "sì", "tra", "tre", "tu", "tutta", "tutte", "tutti", "tutto", "un", "una", "uno", "vi",
            "voi", "è",
        ],
        "pt": [  // Portuguese
            "a", "ao", "aos", "aquela", "aquele", "aqui", "as", "até", "bem", "boa", "bom", "cinco", "com", "como",
            "da", "das", "de", "dela", "dele", "deles", "depois", "do", "dois", "dos", "duas", "e", "ela", "elas",
            "ele", "eles", "em", "entre", "então", "era", "essa", "esse", "esses", "estas", "estes", "está", "estão",
            "foi", "foram", "hoje", "isso", "isto", "já", "mais", "mas", "me", "meu", "minha", "muito", "muitos",
            "na", "nas", "nem", "no", "nos", "nossa", "nosso", "num", "numa", "não", "nós", "o", "obrigada",
            "obrigado", "olá", "onde", "os", "ou", "para", "pela", "pelas", "pelo", "pelos", "por", "porque",
            "quando", "quatro", "que", "quem", "se", "seis", "sem", "ser", "seu", "sua", "são", "também", "tem",
            "ter", "toda", "todas", "todo", "todos", "três", "tu", "têm", "um", "uma", "umas", "uns", "vai", "vamos",
            "você", "vocês", "à", "é",
        ],
        "ja": [  // Japanese (particles, auxiliaries and other words written in hiragana)
            "あ", "あっ", "あの", "あり", "ある", "いい", "いう", "いる", "う", "え", "お", "か", "から", "が", "き", "く", "け", "けど", "こ",
            "こと", "この", "これ", "さ", "さん", "し", "して", "する", "せ", "そ", "その", "それ", "た", "たち", "ため", "だ", "だっ", "で", "です",
            "でも", "と", "とき", "として", "な", "ない", "なお", "など", "なに", "に", "ね", "の", "ので", "のは", "は", "へ", "ほど", "ま", "ます",
            "また", "まで", "も", "もの", "や", "よ", "よう", "より", "ら", "れ", "れる", "わ", "を", "ん",
        ],
    ]

    /// The stop words of every language together.
    public static let all: Set<String> = byLanguage.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// The stop words of `language` (a BCP 47 tag: its primary subtag is
    /// looked up, so `en-GB` is English); nil for a language with no list.
    public static func of(_ language: String) -> Set<String>? {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return byLanguage[primary]
    }
}
