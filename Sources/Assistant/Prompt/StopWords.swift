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
            "anderen", "anderer", "anderes", "auch", "auf", "aus", "außer", "bei", "beim", "bereits", "bin", "bis",
            "bist", "bitte", "da", "dabei", "dadurch", "dafür", "dagegen", "daher", "damit", "danke", "dann", "daran",
            "darauf", "darum", "das", "dass", "dazu", "dein", "deine", "dem", "den", "denen", "denn", "dennoch",
            "der", "deren", "des", "deshalb", "dich", "die", "dies", "diese", "diesem", "diesen", "dieser", "dieses",
            "dir", "doch", "dort", "drei", "du", "durch", "ein", "eine", "einem", "einen", "einer", "eines",
            "einfach", "einige", "er", "es", "etwa", "etwas", "euch", "euer", "eure", "fünf", "für", "gab", "ganz",
            "gar", "gegen", "gegenüber", "gehabt", "geht", "gestern", "gewesen", "gibt", "gut", "guten", "habe",
            "haben", "hallo", "hat", "hatte", "hatten", "heute", "hier", "hin", "hinter", "ich", "ihm", "ihn",
            "ihnen", "ihr", "ihre", "ihrem", "ihren", "ihrer", "ihres", "im", "immer", "in", "ins", "ist", "ja",
            "jede", "jedem", "jeden", "jeder", "jedes", "jemand", "jetzt", "kann", "kannst", "kein", "keine",
            "keinem", "keinen", "keiner", "können", "könnte", "machen", "macht", "mal", "man", "manche", "manchmal",
            "mehr", "mein", "meine", "meinem", "meinen", "meiner", "mich", "mir", "mit", "morgen", "muss", "müssen",
            "nach", "neben", "nein", "nicht", "nichts", "nie", "niemand", "noch", "nun", "nur", "ob", "oder", "oft",
            "ohne", "schon", "sechs", "sehr", "sein", "seine", "seinem", "seinen", "seiner", "seit", "sich", "sie",
            "sind", "so", "soll", "sollte", "sondern", "sowie", "trotz", "trotzdem", "um", "und", "uns", "unser",
            "unsere", "unter", "viel", "viele", "vier", "vom", "von", "vor", "wann", "war", "waren", "warum", "was",
            "wegen", "weil", "weiter", "welche", "welchem", "welchen", "welcher", "welches", "wenn", "wer", "werden",
            "wie", "wieder", "will", "willkommen", "wir", "wird", "wo", "wurde", "wurden", "während", "zu", "zum",
            "zur", "zwei", "zwischen", "über",
        ],
        "es": [  // Spanish
            "a", "además", "ahora", "al", "algo", "alguien", "alguna", "algunas", "alguno", "algunos", "algún",
            "allí", "ante", "antes", "aquel", "aquella", "aquí", "así", "aunque", "aún", "bajo", "bien", "bienvenida",
            "bienvenido", "bienvenidos", "buenas", "bueno", "cada", "casi", "cinco", "como", "con", "contra", "cual",
            "cuales", "cuando", "cuatro", "cuyo", "cuándo", "cómo", "de", "del", "desde", "después", "donde", "dos",
            "durante", "día", "días", "dónde", "el", "ella", "ellas", "ello", "ellos", "en", "entonces", "entre",
            "era", "eran", "es", "esa", "esas", "ese", "eso", "esos", "esta", "estaba", "estamos", "estar", "estas",
            "este", "esto", "estos", "estoy", "está", "están", "fue", "fueron", "gracias", "ha", "había", "hace",
            "hacen", "hacer", "hacia", "han", "hasta", "hay", "hola", "jamás", "la", "las", "le", "les", "lo", "los",
            "luego", "me", "mediante", "mi", "mientras", "mis", "misma", "mismo", "mucha", "muchas", "mucho",
            "muchos", "muy", "más", "nada", "nadie", "ni", "no", "nos", "nosotros", "nuestra", "nuestras", "nuestro",
            "nuestros", "nunca", "o", "otra", "otras", "otro", "otros", "para", "pero", "poca", "poco", "pocos",
            "por", "porque", "pues", "que", "quien", "quienes", "qué", "se", "sea", "según", "seis", "ser", "si",
            "sido", "siempre", "sin", "sino", "sobre", "solo", "son", "su", "sus", "sí", "también", "tan", "tanto",
            "tarde", "te", "tenemos", "tener", "tiene", "tienen", "todavía", "todo", "todos", "tras", "tres", "tu",
            "tus", "tú", "un", "una", "unas", "uno", "unos", "usted", "ustedes", "va", "vamos", "y", "ya", "yo",
        ],
        "fr": [  // French
            "ai", "aie", "ainsi", "alors", "après", "as", "au", "aucun", "aujourd'hui", "aussi", "autre", "autres",
            "aux", "avait", "avant", "avec", "avez", "avoir", "avons", "beaucoup", "bien", "bienvenue", "bon",
            "bonjour", "c'est", "car", "ce", "ceci", "cela", "celle", "celles", "celui", "ces", "cet", "cette",
            "ceux", "chaque", "chez", "ci", "cinq", "comme", "comment", "contre", "d'un", "d'une", "dans", "de",
            "depuis", "des", "deux", "donc", "dont", "du", "dès", "déjà", "elle", "elles", "en", "encore", "enfin",
            "entre", "es", "est", "et", "eu", "eux", "faire", "fais", "fait", "font", "ici", "il", "ils", "j'ai",
            "jamais", "je", "juste", "l'on", "la", "laquelle", "le", "lequel", "les", "leur", "leurs", "lors", "lui",
            "là", "ma", "mais", "me", "merci", "mes", "moi", "mon", "même", "n'est", "ne", "ni", "non", "nos",
            "notre", "nous", "on", "ont", "ou", "où", "par", "parce", "parmi", "pas", "pendant", "personne", "peu",
            "peut", "peuvent", "plus", "pour", "pourquoi", "puis", "qu'elle", "qu'il", "quand", "quatre", "que",
            "quel", "quelle", "quelles", "quelqu'un", "quelque", "quelques", "quels", "qui", "quoi", "rien", "sa",
            "sans", "se", "selon", "ses", "si", "six", "son", "sont", "sous", "souvent", "sur", "ta", "te", "tes",
            "toi", "ton", "toujours", "tous", "tout", "toute", "toutes", "trois", "trop", "très", "tu", "un", "une",
            "vers", "voici", "voilà", "vos", "votre", "vous", "y", "à", "ça", "étaient", "était", "été", "être",
            // Forms of être, aller, vouloir and pouvoir (an all-caps film's candidates held SUIS).
            "suis", "sommes", "êtes", "vais", "vas", "va", "allons", "allez", "vont", "veux", "veut", "voulons",
            "voulez", "veulent", "peux", "pouvons", "pouvez",
        ],
        "it": [  // Italian
            "a", "abbiamo", "accanto", "ad", "adesso", "agli", "ai", "al", "alla", "alle", "allo", "allora", "altra",
            "altre", "altri", "altro", "anche", "ancora", "avere", "aveva", "bene", "benvenuti", "buongiorno", "c'è",
            "che", "chi", "ci", "ciascuno", "cinque", "circa", "come", "con", "contro", "cosa", "così", "cui", "da",
            "dagli", "dai", "dal", "dalla", "dalle", "davanti", "degli", "dei", "del", "della", "delle", "dello",
            "dentro", "di", "dietro", "dopo", "dove", "due", "dunque", "durante", "e", "ecco", "era", "erano",
            "essere", "fa", "fare", "fuori", "già", "gli", "grazie", "ha", "hanno", "ho", "i", "il", "in", "insieme",
            "intorno", "invece", "io", "la", "le", "lei", "li", "lo", "loro", "lui", "ma", "mai", "male", "me",
            "mentre", "mi", "mia", "mio", "molte", "molti", "molto", "ne", "nei", "nel", "nella", "nelle", "nello",
            "niente", "no", "noi", "non", "nostra", "nostri", "nostro", "nulla", "o", "oggi", "ogni", "oltre", "ora",
            "per", "perché", "però", "più", "poi", "prima", "proprio", "qua", "qualche", "qualcosa", "quale", "quali",
            "quando", "quanto", "quattro", "quella", "quelle", "quelli", "quello", "questa", "queste", "questi",
            "questo", "qui", "quindi", "se", "sei", "sempre", "senza", "si", "sia", "siamo", "sono", "sopra", "sotto",
            "sta", "stato", "stessa", "stesso", "su", "sua", "sue", "sui", "sul", "sulla", "suo", "suoi", "sì",
            "tanto", "tra", "tre", "troppo", "tu", "tutta", "tutte", "tutti", "tutto", "un", "una", "uno", "verso",
            "vi", "voi", "vostra", "vostro", "è",
        ],
        "pt": [  // Portuguese
            "a", "agora", "ainda", "algo", "alguém", "antes", "ao", "aos", "após", "aquela", "aquele", "aqui",
            "aquilo", "as", "assim", "até", "aí", "bem", "boa", "bom", "cada", "cinco", "com", "como", "contra", "da",
            "das", "de", "dela", "dele", "deles", "depois", "desde", "do", "dois", "dos", "duas", "durante", "e",
            "ela", "elas", "ele", "eles", "em", "entre", "então", "era", "essa", "esse", "esses", "esta", "estas",
            "este", "estes", "está", "estão", "foi", "foram", "hoje", "isso", "isto", "já", "lá", "mais", "mas", "me",
            "mesma", "mesmo", "meu", "meus", "minha", "minhas", "muito", "muitos", "na", "nada", "nas", "nem",
            "ninguém", "no", "nos", "nossa", "nossas", "nosso", "nossos", "num", "numa", "nunca", "não", "nós", "o",
            "obrigada", "obrigado", "olá", "onde", "os", "ou", "outra", "outras", "outro", "outros", "para", "pela",
            "pelas", "pelo", "pelos", "por", "porque", "porém", "pouco", "quando", "quatro", "que", "quem", "se",
            "seis", "sem", "sempre", "ser", "seu", "seus", "sob", "sobre", "sua", "suas", "são", "também", "tem",
            "ter", "toda", "todas", "todo", "todos", "três", "tu", "tudo", "têm", "um", "uma", "umas", "uns", "vai",
            "vamos", "você", "vocês", "à", "é",
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
