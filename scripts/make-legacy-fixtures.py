#!/usr/bin/env python3
"""Writes the legacy-encoding caption fixtures (Tests/CaptionsTests/Fixtures/valid/legacy).

Each encoding gets three files, made with Python's own codecs (not the tool's ICU):
  NAME.srt          the captions in that encoding (no byte-order mark, not UTF-8)
  NAME.utf8.srt     the same text in UTF-8: what the tool must read it as
  NAME.bold.srt     the captions with KEYWORD made bold (<b>KEYWORD</b>) everywhere, in any case,
                    in that encoding: what an edit must write, byte for byte
and Fixtures/legacy.tsv lists: file, Python codec, the names the detector may give, keyword.
Run it from the repository root; the output is committed (binary: see .gitattributes).
"""
import os
import re

HERE = "Tests/CaptionsTests/Fixtures/valid/legacy"

def srt(lines):
    out = []
    for i, text in enumerate(lines):
        out.append(f"{i + 1}\n00:00:{i * 3 + 1:02d},000 --> 00:00:{i * 3 + 3:02d},500\n{text}\n")
    return "\n".join(out)

ZH_HANS = ["我们今天去北京看长城，天气很好。", "北京的秋天非常美丽，游客很多。",
           "晚上我们在饭店吃了烤鸭，大家都很高兴。", "明天我们还要去故宫参观。"]
ZH_HANT = ["我們今天去台北看故宮，天氣很好。", "台北的秋天非常美麗，遊客很多。",
           "晚上我們在飯店吃了小籠包，大家都很高興。", "明天我們還要去陽明山參觀。"]
JA = ["今日は東京へ行きました。とても楽しかったです。", "東京の秋はとても美しいです。",
      "夜はレストランで寿司を食べました。", "明日は京都へ行く予定です。"]
KO = ["오늘은 서울에 갔습니다. 날씨가 정말 좋았어요.", "서울의 가을은 정말 아름답습니다.",
      "저녁에는 식당에서 불고기를 먹었습니다.", "내일은 부산에 갈 예정입니다."]
RU = ["Сегодня мы пошли в парк, и погода была хорошей.", "Погода в Москве осенью очень красивая.",
      "Вечером мы ужинали в ресторане и много смеялись.", "Завтра мы поедем на вокзал рано утром."]
PL = ["Jutro pojedziemy do Krakowa, żeby zobaczyć Wawel.", "To była naprawdę piękna podróż, łódź płynęła szybko.",
      "Wieczorem zjedliśmy pierogi w małej restauracji.", "Następnego dnia wróciliśmy pociągiem do Warszawy."]
FR = ["Nous sommes allés au café près de la gare.", "C'était une très belle journée d'été, à bientôt.",
      "Le soir, nous avons dîné au café avec nos amis.", "Demain, nous partirons très tôt pour Genève."]
FR_1252 = FR[:1] + ["C’était une très belle journée d’été, n’est-ce pas ?"] + FR[2:]
DE = ["Wir fahren morgen früh nach München, über die Brücke.", "„Schöne Grüße“, sagte der Mann – und lächelte.",
      "Am Abend aßen wir in München in einem großen Gasthaus.", "Danach gingen wir müde, aber glücklich nach Hause."]
EL = ["Σήμερα πήγαμε στο πάρκο και ο καιρός ήταν πολύ καλός.", "Ήταν μια πολύ ωραία μέρα για βόλτα στο πάρκο.",
      "Το βράδυ φάγαμε σε ένα μικρό εστιατόριο κοντά στη θάλασσα.", "Αύριο θα πάμε στην Αθήνα με το τρένο."]
TR = ["Bugün parka gittik ve hava çok güzeldi, değil mi?", "Yürüyüş için harika bir gündü, şimdi eve dönüyoruz.",
      "Akşam küçük bir lokantada yemek yedik ve çok güldük.", "Yarın sabah erkenden İstanbul'a gideceğiz."]
HE = ["היום הלכנו לפארק ומזג האוויר היה טוב מאוד.", "זה היה יום נהדר לטיול בפארק הגדול.",
      "בערב אכלנו במסעדה קטנה ליד הים.", "מחר ניסע לירושלים ברכבת."]
AR = ["ذهبنا اليوم إلى الحديقة وكان الطقس جميلا جدا.", "كان يوما رائعا للنزهة في الحديقة الكبيرة.",
      "في المساء تناولنا العشاء في مطعم صغير قرب البحر.", "غدا سنسافر إلى القاهرة بالقطار."]
LT = ["Šiandien nuėjome į parką, oras buvo labai gražus.", "Vakare valgėme cepelinus mažame restorane prie jūros.",
      "Rytoj važiuosime į Vilnių traukiniu."]

CS = ["Zítra pojedeme do Prahy, abychom viděli hrad.", "Byla to opravdu krásná cesta, loď plula rychle.",
      "Večer jsme jedli knedlíky v malé restauraci.", "Příštího dne jsme se vrátili vlakem do Brna."]

# name, codec, text, keyword, the names the file may be detected as: empty, declared only (not known when
# detected); "!A|B", not known when detected (two encodings read it as different text, or the best guess is
# not confident), and the message names at least A and B (CharsetDetection's rule);
# ISO-8859-1 text is read as Windows-1252, which reads it the same and holds more
CASES = [
    ("gbk", "gbk", ZH_HANS, "北京", "GBK"),
    ("gb18030", "gb18030", ZH_HANS + ["㐀㐁是扩展汉字，不在GBK里。"], "北京", "GB18030"),
    ("big5", "big5", ZH_HANT, "台北", "Big5"),
    ("euc-kr", "euc_kr", KO, "정말", "EUC-KR"),
    ("shift_jis", "shift_jis", JA, "東京", "Shift_JIS"),
    ("euc-jp", "euc_jp", JA, "東京", "!EUC-JP|GBK"),
    ("koi8-r", "koi8_r", RU, "погода", "KOI8-R"),
    ("windows-1250", "cp1250", PL, "restauracji", "!Windows-1250|Windows-1252"),
    ("windows-1251", "cp1251", RU, "погода", "Windows-1251"),
    ("windows-1252", "cp1252", FR_1252, "café", "Windows-1252"),
    ("windows-1252-de", "cp1252", DE, "München", "Windows-1252"),
    ("windows-1253", "cp1253", EL, "πάρκο", "Windows-1253|ISO-8859-7"),
    ("windows-1254", "cp1254", TR, "güzeldi", "Windows-1254|ISO-8859-9"),
    ("windows-1255", "cp1255", HE, "לפארק", "Windows-1255|ISO-8859-8|ISO-8859-8-I"),
    ("windows-1256", "cp1256", AR, "الحديقة", "Windows-1256"),
    ("windows-1257", "cp1257", LT, "restorane", ""),
    ("iso-8859-1", "latin_1", FR, "café", "Windows-1252"),
    ("iso-8859-2", "iso8859_2", PL, "restauracji", "!ISO-8859-2|Windows-1252"),
    ("iso-8859-5", "iso8859_5", RU, "погода", "ISO-8859-5"),
    ("iso-8859-6", "iso8859_6", AR, "الحديقة", "ISO-8859-6"),
    ("iso-8859-7", "iso8859_7", EL, "πάρκο", "ISO-8859-7"),
    ("iso-8859-8", "iso8859_8", HE, "לפארק", "ISO-8859-8|ISO-8859-8-I"),
    ("iso-8859-9", "iso8859_9", TR, "güzeldi", "ISO-8859-9"),
    # Short files, and the ones ICU's best guess alone misread (issue 32's QA pass).
    ("euc-kr-short", "euc_kr", ["그는 회사를 그만뒀대요."], "회사를", "!KOI8-R|EUC-KR"),
    ("euc-kr-short-2", "euc_kr", KO[1:2], "정말", "EUC-KR"),
    ("euc-jp-short", "euc_jp", JA[1:2], "東京", "!EUC-JP|GBK"),
    ("gbk-short", "gbk", ZH_HANS[:1], "北京", "GBK"),
    ("big5-short", "big5", ZH_HANT[:1], "台北", "Big5"),
    ("shift_jis-short", "shift_jis", JA[1:2], "東京", "Shift_JIS"),
    ("windows-1250-cs", "cp1250", CS, "restauraci", "!Windows-1250|Windows-1252"),
    ("iso-8859-2-cs", "iso8859_2", CS, "restauraci", "!ISO-8859-2|Windows-1252"),
    ("windows-1251-short", "cp1251", RU[1:2], "Москве", "Windows-1251"),
    ("koi8-r-short", "koi8_r", RU[2:3], "ресторане", "KOI8-R"),
    ("windows-1253-short", "cp1253", EL[3:4], "Αθήνα", "ISO-8859-7"),
]

def main():
    manifest = []
    for name, codec, lines, keyword, detected in CASES:
        text = srt(lines)
        assert keyword in text, name
        # Emphasis is case-insensitive ("Погода" at the start of a cue too).
        bold = re.sub(re.escape(keyword), lambda m: f"<b>{m.group(0)}</b>", text, flags=re.IGNORECASE)
        raw = text.encode(codec)
        try:
            raw.decode("utf-8")
            raise SystemExit(f"{name}: the fixture is valid UTF-8; it must not be")
        except UnicodeDecodeError:
            pass
        assert raw.decode(codec) == text
        for suffix, data in ((".srt", raw), (".utf8.srt", text.encode("utf-8")), (".bold.srt", bold.encode(codec))):
            with open(os.path.join(HERE, name + suffix), "wb") as f:
                f.write(data)
        manifest.append("\t".join([name, codec, detected, keyword]))
    with open(os.path.join(HERE, "..", "..", "legacy.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(manifest) + "\n")

main()
