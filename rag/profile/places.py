"""Where a CV says its owner lives: a city and a country as written, and the country normalised.

Country names come from CLDR through Babel, in English, Spanish, German and French ("Germany",
"Alemania", "Deutschland", "Allemagne" all give DE), plus the short and informal names CVs use
("UK", "USA", "EE. UU.", "England", "Holland") and a few names in the country's own language.
Cities come from a small hand-made gazetteer (CITIES): the larger cities of Europe and the
Americas and the biggest elsewhere, with their exonyms ("München", "Munich", "Múnich"). A city it
does not hold is found only next to a country ("Tübingen, Deutschland").

A place is read only from a whole segment of a line: the line is cut at " — ", "|", "·", "•" and
then at commas, and a segment must be nothing but a city, a country, or a city with a postcode
("10115 Berlin", "London SW1A 1AA", "Boston, MA 02108"). So "Paris Hilton" or "University of
Leeds" are no places, and a street ("Hauptstraße 5") may stand beside the city, a region in
capitals beside a known city ("Pune, Maharashtra"). A town the gazetteer does not know is taken
as written, without a country, where the line says it is a place ("Location: Nagpur", "Address:
No. 12, Temple Road, Maharagama") or where it ends an address that starts with a house number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex
from babel import Locale

from rag.lexicon.terms import fold

CV_LANGUAGES = ("en", "es", "de", "fr")

_EXTRA_COUNTRY_NAMES: dict[str, tuple[str, ...]] = {
    "GB": (
        "UK",
        "U.K.",
        "Great Britain",
        "Britain",
        "England",
        "Scotland",
        "Wales",
        "Northern Ireland",
        "Inglaterra",
        "Escocia",
        "Gales",
        "Gran Bretaña",
        "Großbritannien",
        "Schottland",
        "Angleterre",
        "Écosse",
        "Pays de Galles",
        "Grande-Bretagne",
    ),
    "US": (
        "USA",
        "U.S.A.",
        "US",
        "U.S.",
        "United States of America",
        "America",
        "EE. UU.",
        "EE.UU.",
        "EEUU",
        "Estados Unidos de América",
        "Vereinigte Staaten von Amerika",
        "États-Unis d'Amérique",
        "Etats-Unis",
    ),
    "NL": ("Holland", "The Netherlands", "Nederland", "Holanda", "Hollande"),
    "CZ": ("Czech Republic", "República Checa", "Tschechische Republik", "République tchèque", "Česko"),
    "TR": ("Turkey", "Türkiye"),
    "DE": ("BRD", "Germany"),
    "CH": ("Svizzera", "Schweiz", "Suisse", "Confoederatio Helvetica"),
    "IT": ("Italia",),
    "PL": ("Polska",),
    "SE": ("Sverige",),
    "NO": ("Norge",),
    "DK": ("Danmark",),
    "FI": ("Suomi",),
    "GR": ("Ελλάδα", "Hellas"),
    "HU": ("Magyarország",),
    "RO": ("România",),
    "BE": ("België", "Belgie"),
    "AT": ("Oesterreich",),
    "IE": ("Éire",),
    "KR": ("Korea",),
    "AE": ("UAE", "U.A.E."),
    "RU": ("Russian Federation",),
}

CITIES = """
DE Berlin|Berlín; München|Munich|Múnich|Munchen|Muenchen; Hamburg|Hamburgo|Hambourg; Köln|Cologne|Colonia|Koeln;
   Frankfurt am Main|Frankfurt|Fráncfort|Francfort|Frankfurt a. M.; Stuttgart; Düsseldorf|Dusseldorf|Duesseldorf;
   Leipzig; Dresden|Dresde; Hannover|Hanover|Hanóver|Hanovre; Nürnberg|Nuremberg|Núremberg;
   Bremen|Brême; Essen; Dortmund; Bonn; Mannheim; Karlsruhe; Münster|Munster; Augsburg; Freiburg im Breisgau|Freiburg;
   Heidelberg; Potsdam; Kiel; Mainz|Mayence; Wiesbaden; Bochum; Duisburg; Wuppertal; Bielefeld; Aachen|Aquisgrán|Aix-la-Chapelle;
   Braunschweig; Chemnitz; Magdeburg; Erfurt; Rostock; Lübeck; Regensburg|Ratisbonne; Ulm; Würzburg; Saarbrücken; Darmstadt; Jena
AT Wien|Vienna|Viena|Vienne; Graz; Linz; Salzburg|Salzburgo|Salzbourg; Innsbruck; Klagenfurt
CH Zürich|Zurich|Zúrich; Genève|Geneva|Ginebra|Genf|Geneve; Basel|Bâle|Basilea; Bern|Berne|Berna; Lausanne|Lausana;
   Luzern|Lucerne|Lucerna; Lugano; St. Gallen|Saint-Gall; Winterthur; Zug
FR Paris|París; Lyon|Lyons|Lión; Marseille|Marseilles|Marsella; Toulouse|Tolosa; Bordeaux|Burdeos; Lille; Nantes;
   Strasbourg|Straßburg|Estrasburgo|Strassburg; Nice|Niza|Nizza; Montpellier; Rennes; Grenoble; Reims; Le Havre;
   Toulon; Angers; Dijon; Brest; Clermont-Ferrand; Tours; Limoges; Metz; Rouen|Ruan; Caen; Orléans; Nancy; Perpignan;
   Avignon|Aviñón; Annecy; Aix-en-Provence; Versailles; Boulogne-Billancourt
BE Bruxelles|Brussels|Bruselas|Brüssel|Brussel; Antwerpen|Antwerp|Amberes|Anvers; Gent|Ghent|Gante|Gand;
   Liège|Lieja|Lüttich; Leuven|Louvain|Lovaina; Namur; Charleroi; Brugge|Bruges|Brujas
LU Luxembourg|Luxemburg|Luxemburgo
NL Amsterdam|Ámsterdam; Rotterdam|Róterdam; Den Haag|The Hague|La Haya|La Haye; Utrecht; Eindhoven; Groningen; Delft; Leiden
GB London|Londres; Manchester; Edinburgh|Edimburgo|Édimbourg; Bristol; Leeds; Birmingham; Glasgow;
   Liverpool; Sheffield; Newcastle upon Tyne|Newcastle; Nottingham; Leicester; Cardiff; Belfast; Cambridge;
   Oxford; Brighton; Southampton; Reading; Aberdeen; York; Bath; Coventry; Milton Keynes; Exeter
IE Dublin|Dublín|Baile Átha Cliath; Cork; Galway; Limerick
ES Madrid; Barcelona|Barcelone; Valencia|Valence|València; Sevilla|Seville|Séville; Bilbao|Bilbo; Málaga|Malaga;
   Zaragoza|Saragossa|Saragosse; A Coruña|La Coruña|La Corogne|Coruña; Palma de Mallorca|Palma; Las Palmas de Gran Canaria|Las Palmas;
   Alicante|Alacant; Córdoba|Cordoba|Cordoue; Valladolid; Vigo; Gijón; Granada|Grenade; Murcia|Murcie; Pamplona|Pampelune;
   Santander; San Sebastián|Donostia|Saint-Sébastien; Salamanca|Salamanque; Oviedo; Vitoria-Gasteiz|Vitoria; Santiago de Compostela;
   Tarragona; Girona|Gerona; Cádiz; Badajoz; Burgos; León; Almería; Castellón de la Plana|Castellón
PT Lisboa|Lisbon|Lissabon|Lisbonne; Porto|Oporto; Braga; Coimbra; Faro
IT Roma|Rome|Rom; Milano|Milan|Milán|Mailand; Napoli|Naples|Nápoles|Neapel; Torino|Turin|Turín; Firenze|Florence|Florencia|Florenz;
   Bologna|Bolonia|Bologne; Venezia|Venice|Venecia|Venedig|Venise; Genova|Genoa|Génova|Genua|Gênes; Verona|Vérone;
   Palermo|Palerme; Bari; Padova|Padua|Padoue; Trieste|Triest; Pisa|Pise
MX Ciudad de México|Mexico City|CDMX|México D. F.|Mexiko-Stadt|Mexico; Guadalajara; Monterrey; Puebla; Tijuana; Querétaro;
   Mérida; León de los Aldama; Cancún|Cancun
AR Buenos Aires; Rosario; Mendoza; La Plata
CO Bogotá|Bogota; Medellín|Medellin; Cali; Barranquilla; Cartagena de Indias|Cartagena
CL Santiago de Chile|Santiago; Valparaíso; Concepción
PE Lima; Arequipa; Cusco
VE Caracas; Maracaibo
EC Quito; Guayaquil
UY Montevideo
BR São Paulo|Sao Paulo; Rio de Janeiro|Río de Janeiro; Brasília|Brasilia; Belo Horizonte; Porto Alegre; Curitiba; Recife
US New York|New York City|NYC|Nueva York; Boston; Chicago; Seattle; San Francisco; Los Angeles; Washington D.C.|Washington DC|Washington;
   Austin; Denver; Atlanta; Miami; Dallas; Houston; Philadelphia|Filadelfia|Philadelphie; Phoenix; San Diego; San Jose;
   Portland; Minneapolis; Detroit; Pittsburgh; Baltimore; Nashville; Charlotte; Raleigh; Salt Lake City; Las Vegas;
   Orlando; Tampa; St. Louis; Kansas City; Columbus; Indianapolis; Cleveland; Cincinnati; Sacramento; Palo Alto;
   Mountain View; Menlo Park; Cupertino; Redmond; Brooklyn; New Orleans|Nueva Orleans|La Nouvelle-Orléans
CA Toronto; Montréal|Montreal; Vancouver; Ottawa; Calgary; Edmonton; Québec|Quebec City|Ville de Québec; Winnipeg; Halifax
PL Warszawa|Warsaw|Varsovia|Warschau|Varsovie; Kraków|Krakow|Cracow|Cracovia|Krakau|Cracovie; Wrocław|Wroclaw|Breslau|Breslavia;
   Gdańsk|Gdansk|Danzig; Poznań|Poznan|Posen; Łódź|Lodz; Katowice; Szczecin|Stettin
CZ Praha|Prague|Praga|Prag; Brno|Brünn; Ostrava
SK Bratislava|Pressburg
HU Budapest
RO București|Bucharest|Bucarest|Bukarest; Cluj-Napoca|Cluj; Timișoara|Timisoara; Iași|Iasi
BG Sofia|Sofía|Sofija
GR Αθήνα|Athens|Atenas|Athen|Athènes|Athina; Θεσσαλονίκη|Thessaloniki|Salónica|Thessalonique|Saloniki
TR İstanbul|Istanbul|Estambul; Ankara; İzmir|Izmir
DK København|Copenhagen|Copenhague|Kopenhagen; Aarhus|Århus; Odense
SE Stockholm|Estocolmo; Göteborg|Gothenburg|Gotemburgo; Malmö|Malmo; Uppsala
NO Oslo; Bergen; Trondheim; Stavanger
FI Helsinki|Helsingfors; Espoo; Tampere; Turku
IS Reykjavík|Reykjavik
EE Tallinn
LV Riga
LT Vilnius
HR Zagreb; Split
SI Ljubljana|Liubliana
RS Beograd|Belgrade|Belgrado|Belgrad
UA Kyiv|Kiev|Kiew; Lviv|Lwów|Lemberg; Kharkiv|Járkov; Odesa|Odessa
RU Moskva|Moscow|Moscú|Moskau|Moscou; Sankt-Peterburg|Saint Petersburg|St. Petersburg|San Petersburgo|Sankt Petersburg|Saint-Pétersbourg
MT Valletta|La Valeta
CY Nicosia|Nicosie|Limassol
IL Tel Aviv|Tel Aviv-Yafo|Tel-Aviv; Jerusalem|Jerusalén|Jérusalem; Haifa
AE Dubai|Dubái|Dubaï; Abu Dhabi|Abu Dabi
QA Doha
SA Riyadh|Riad|Riyad; Jeddah
EG Cairo|El Cairo|Kairo|Le Caire
MA Casablanca; Rabat; Marrakech|Marrakesh|Marrakesch
TN Tunis|Túnez
DZ Alger|Algiers|Argel|Algier
NG Lagos; Abuja
KE Nairobi
ZA Johannesburg|Johannesburgo; Cape Town|Ciudad del Cabo|Kapstadt|Le Cap; Durban; Pretoria
IN Bengaluru|Bangalore; Mumbai|Bombay; New Delhi|Delhi|Nueva Delhi|Neu-Delhi; Hyderabad; Chennai|Madras; Pune; Kolkata|Calcutta; Noida; Gurugram|Gurgaon;
   Ahmedabad; Surat; Jaipur; Lucknow; Kanpur; Nagpur; Indore; Thane; Bhopal; Visakhapatnam
LK Colombo; Kandy
PK Karachi; Lahore; Islamabad
BD Dhaka
CN Beijing|Peking|Pekín|Pékin; Shanghai|Shanghái|Schanghai; Shenzhen; Guangzhou|Canton|Cantón; Hangzhou; Chengdu
HK Hong Kong|Hongkong
TW Taipei|Taipéi
JP Tokyo|Tokio|Tōkyō; Osaka; Kyoto|Kioto; Yokohama
KR Seoul|Seúl|Séoul; Busan
SG Singapore|Singapur|Singapour
MY Kuala Lumpur
TH Bangkok
VN Ho Chi Minh City|Saigon; Hanoi|Hanói
ID Jakarta|Yakarta
PH Manila|Manille
AU Sydney|Sídney; Melbourne; Brisbane; Perth; Adelaide|Adelaida; Canberra
NZ Auckland; Wellington; Christchurch
"""
"""Country code, then cities separated by ";", each with its spellings separated by "|"; the
first country listed keeps a spelling shared by two (Córdoba is Spain's here, not Argentina's)."""

US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


@dataclass(frozen=True)
class Location:
    """city and country as the CV writes them (either may be None); code is ISO 3166-1 alpha-2."""

    city: str | None
    country_written: str | None
    code: str | None  # None: a town the gazetteer does not know, written without its country
    country: str | None  # English name, from CLDR


def _key(text: str) -> str:
    return " ".join(fold(text).replace(".", " ").replace("-", " ").split())


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(country spelling -> code, city spelling -> code, code -> English name)."""
    countries: dict[str, str] = {}
    english: dict[str, str] = {}
    for language in CV_LANGUAGES:
        for code, name in Locale.parse(language).territories.items():
            if len(code) == 2 and code.isalpha():
                countries.setdefault(_key(name), code)
                if language == "en":
                    english[code] = name
    for code, names in _EXTRA_COUNTRY_NAMES.items():
        for name in names:
            countries.setdefault(_key(name), code)
    cities: dict[str, str] = {}
    for code, spellings in _gazetteer():
        for spelling in spellings:
            cities.setdefault(_key(spelling), code)
    return countries, cities, english


@lru_cache(maxsize=1)
def _gazetteer() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(country code, spellings) of every city in CITIES, in order."""
    return tuple(
        (block.split(" ", 1)[0], tuple(s.strip() for s in city.split("|")))
        for block in regex.split(r"\n(?=[A-Z]{2} )", CITIES.strip())
        for city in block.split(" ", 1)[1].split(";")
    )


_STRONG = regex.compile(r"\s+[—–-]\s+|\s*[|·•;\t]\s*|\s{3,}")
_POSTCODE_BEFORE = regex.compile(
    r"^(?:\d{4}\s?[A-Z]{2}|(?:[A-Z]{1,2}-)?\d{4,6}(?:-\d{3,4})?)\s+"
)  # 1011 AB, 10115, D-10115, 1000-001
_POSTCODE_AFTER = regex.compile(
    r"\s+(?:\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[A-Z]\d{2}\s?[A-Z\d]{4}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$"
    r"|\s*-\s*\d{6}$"
)  # UK, IE, CA; an Indian PIN after a hyphen
_STATE_ZIP = regex.compile(r"^([A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?$")
_PARENS = regex.compile(r"^(.+?)\s*\((.+)\)$")
_LABEL = regex.compile(
    r"^(?:(?P<phrase>based in|lives in)|address|location|current location|residence|city|dirección|"
    r"direccion|domicilio|ubicación|residencia|ciudad|adresse|anschrift|wohnort|standort|stadt|"
    r"lieu|localisation|résidence|ville)(?![\p{L}])\s*(?P<colon>:)?\s*",
    regex.IGNORECASE,
)
_HOUSE_NUMBER = regex.compile(r"^(?:no\.?\s*)?\d", regex.IGNORECASE)
_STREET_WORDS = regex.compile(
    r"(?<![\p{L}])(?:road|rd|street|st|lane|ln|avenue|ave|drive|boulevard|blvd|mawatha|marg|floor|flat|apartment|apt|"
    r"calle|avenida|carrer|plaza|stra(?:ss|ß)e|str|weg|platz|gasse|allee|rue|chemin|bd)(?![\p{L}])\.?",
    regex.IGNORECASE,
)
_REGION = regex.compile(r"^\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2}$")


def country_name(code: str) -> str | None:
    """English name of an ISO 3166-1 alpha-2 code ("DE" -> "Germany")."""
    return _tables()[2].get(code)


def country_code(name: str) -> str | None:
    """ISO code of a country name in en/es/de/fr or a common short form ("EE. UU." -> "US")."""
    return _tables()[0].get(_key(name))


def city_country(name: str) -> str | None:
    """ISO code of the country of a city in the gazetteer ("Múnich" -> "DE")."""
    return _tables()[1].get(_key(name))


@lru_cache(maxsize=1)
def _city_spellings() -> dict[str, tuple[str, ...]]:
    """Spelling key of a gazetteer city -> all its spellings ("munich" -> München, Munich, ...)."""
    table: dict[str, tuple[str, ...]] = {}
    for _, spellings in _gazetteer():
        for spelling in spellings:
            table.setdefault(_key(spelling), spellings)
    return table


def city_spellings(name: str) -> tuple[str, ...]:
    """Every spelling of the gazetteer city a name spells ("Munich" -> München, Munich, Múnich, ...);
    empty for a name the gazetteer does not hold."""
    return _city_spellings().get(_key(name), ())


def _without_postcode(part: str) -> str:
    return _POSTCODE_AFTER.sub("", _POSTCODE_BEFORE.sub("", part.strip())).strip()


def _place_in(part: str) -> tuple[str | None, str | None, str | None]:
    """(city, country written, code) if the comma-separated part is nothing but a place."""
    part = _without_postcode(part)
    nested = _PARENS.match(part)
    if nested:
        city, _, inner = _place_in(nested.group(1))
        _, country, code = _place_in(nested.group(2))
        if city and country:
            return city, country, code
    if code := country_code(part):
        return None, part, code
    if code := city_country(part):
        return part, None, code
    return None, None, None


def _town_and_country(part: str) -> tuple[str, str, str] | None:
    """(town, country, code) of a part that ends with a country after a town: "Anytown USA"."""
    words = _without_postcode(part).split()
    for n in (2, 1):  # not "Latin America": America names a continent as often as a country
        if len(words) > n and words[-1].casefold() != "america" and (code := country_code(" ".join(words[-n:]))):
            return " ".join(words[:-n]), " ".join(words[-n:]), code
    return None


def _location_in(segment: str, told: bool = False) -> Location | None:
    """A place in one segment of a line: "Berlin", "Berlin, Deutschland", "12, rue X, 75002 Paris".

    Every comma-separated part must be a city, a country, a US state (with or without ZIP) or a
    street; a street is a part with a number, or any part before a city that has a postcode
    ("rue de la Paix, 75002 Paris"). One unknown word beside a country is taken as its city
    ("Tübingen, Deutschland"), regions in capitals after a known city are passed over ("Pune,
    Maharashtra"). Where the line is told to be a place (a "Location:" label, an address that
    starts with a house number), the first unknown part that is no street is the town.
    """
    city = written = city_code = written_code = None
    state = False
    unknown_at_city = 0
    unknown: list[str] = []
    for part in (p.strip() for p in segment.split(",")):
        place_city, place_country, code = _place_in(part)
        if told and not (place_city or place_country) and (split := _town_and_country(part)):
            town, place_country, code = split  # "Anytown USA"
            unknown.append(town)
        if place_country and written is None:
            written, written_code = place_country, code
        if place_city and city is None:
            city, city_code = place_city, city_country(place_city)
            if _without_postcode(part) != part.strip():
                unknown.clear()  # what came before a "postcode city" part is its street
            unknown_at_city = len(unknown)
        if place_city or place_country:
            continue
        state_zip = _STATE_ZIP.match(part)
        if state_zip and state_zip.group(1) in US_STATES:
            state = True
        elif (bare := _POSTCODE_AFTER.sub("", part).strip()) and not regex.search(r"\d", bare):
            unknown.append(bare)  # a town, perhaps with its postcode after it; a number before it is a street
    before_city = unknown[:unknown_at_city] if city is not None else unknown
    if city is not None and not before_city and all(_REGION.match(u) for u in unknown):
        unknown.clear()  # "Pune, Maharashtra": a region after its city
    if unknown:
        towns = [u for u in unknown if not _STREET_WORDS.search(u)]
        if told and city is None and towns:
            city = towns[0]
        elif not (written and city is None and len(unknown) == 1):
            return None
        else:
            city = unknown[0]
    code = written_code or city_code or ("US" if state and city else None)
    if code is None and not (told and city):
        return None
    return Location(city, written, code, country_name(code) if code else None)


def find_location(lines: list[str]) -> Location | None:
    """The first place written as a whole segment of one of the lines (header or contact lines)."""
    for line in lines:
        labelled = _LABEL.match(line.strip())
        line = line.strip()[labelled.end() :] if labelled else line.strip()
        told = bool(labelled and (labelled.group("colon") or labelled.group("phrase"))) or bool(
            _HOUSE_NUMBER.match(line) and "," in line
        )
        for segment in _STRONG.split(line):
            if segment and "@" not in segment:
                found = _location_in(segment.strip(" ,;"), told)
                if found:
                    return found
    return None
