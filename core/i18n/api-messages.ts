/**
 * The API's commonest error messages in the request's language (decision 0107). Mealie picks a backend
 * translation file by Accept-Language and falls back to English; Larder does the same for the messages
 * below (401/403/404/405/409/422/423/429), and leaves every other message, and every request that asks
 * for English, any language without a catalogue or nothing at all, in the exact English wire text.
 * Only the human-readable text changes: the shapes, `type` and `loc` of a 422 never do.
 */

/** The languages with a catalogue here, in the order of each row below. */
export const API_MESSAGE_LANGUAGES = ["de-DE", "fr-FR", "es-ES", "nl-NL", "he-IL", "ar-SA"] as const;
export type ApiMessageLanguage = (typeof API_MESSAGE_LANGUAGES)[number];
type Row = readonly [de: string, fr: string, es: string, nl: string, he: string, ar: string];

/** Exact messages, compared without case ("group not found" and "Group not found" are one row). */
const EXACT: Record<string, Row> = {
  "could not validate credentials": [
    "Anmeldedaten konnten nicht überprüft werden",
    "Impossible de valider les identifiants",
    "No se pudieron validar las credenciales",
    "Inloggegevens konden niet worden gecontroleerd",
    "לא ניתן היה לאמת את פרטי ההתחברות",
    "تعذّر التحقق من بيانات الدخول",
  ],
  "not authenticated": [
    "Nicht angemeldet",
    "Non authentifié",
    "No autenticado",
    "Niet ingelogd",
    "לא מחובר",
    "لم يتم تسجيل الدخول",
  ],
  unauthorized: [
    "Nicht berechtigt",
    "Non autorisé",
    "No autorizado",
    "Niet geautoriseerd",
    "אין הרשאה",
    "غير مصرّح",
  ],
  "password login is disabled": [
    "Die Anmeldung mit Passwort ist deaktiviert",
    "La connexion par mot de passe est désactivée",
    "El inicio de sesión con contraseña está desactivado",
    "Inloggen met een wachtwoord is uitgeschakeld",
    "ההתחברות בסיסמה מושבתת",
    "تسجيل الدخول بكلمة المرور معطّل",
  ],
  "user is locked out": [
    "Das Konto ist gesperrt",
    "Le compte est verrouillé",
    "La cuenta está bloqueada",
    "Het account is geblokkeerd",
    "החשבון נעול",
    "الحساب مقفل",
  ],
  "too many failed sign-ins from your address; try again later": [
    "Zu viele fehlgeschlagene Anmeldungen von deiner Adresse; versuche es später erneut",
    "Trop de connexions échouées depuis votre adresse ; réessayez plus tard",
    "Demasiados inicios de sesión fallidos desde tu dirección; inténtalo más tarde",
    "Te veel mislukte inlogpogingen vanaf je adres; probeer het later opnieuw",
    "יותר מדי ניסיונות התחברות כושלים מהכתובת שלך; נסו שוב מאוחר יותר",
    "محاولات دخول فاشلة كثيرة من عنوانك؛ حاول مرة أخرى لاحقًا",
  ],
  "permission denied": [
    "Zugriff verweigert",
    "Permission refusée",
    "Permiso denegado",
    "Toegang geweigerd",
    "הגישה נדחתה",
    "تم رفض الإذن",
  ],
  forbidden: ["Verboten", "Interdit", "Prohibido", "Verboden", "אסור", "محظور"],
  "user registration is disabled": [
    "Die Registrierung ist deaktiviert",
    "L'inscription est désactivée",
    "El registro de usuarios está desactivado",
    "Registreren is uitgeschakeld",
    "ההרשמה מושבתת",
    "تسجيل المستخدمين معطّل",
  ],
  "comment does not belong to user": [
    "Der Kommentar gehört nicht diesem Benutzer",
    "Le commentaire n'appartient pas à cet utilisateur",
    "El comentario no pertenece al usuario",
    "De reactie is niet van deze gebruiker",
    "התגובה אינה שייכת למשתמש",
    "التعليق لا يخص هذا المستخدم",
  ],
  "only the recipe owner can lock or unlock it": [
    "Nur der Besitzer des Rezepts kann es sperren oder entsperren",
    "Seul le propriétaire de la recette peut la verrouiller ou la déverrouiller",
    "Solo el propietario de la receta puede bloquearla o desbloquearla",
    "Alleen de eigenaar van het recept kan het vergrendelen of ontgrendelen",
    "רק הבעלים של המתכון יכול לנעול או לשחרר אותו",
    "لا يمكن قفل الوصفة أو فتحها إلا لمالكها",
  ],
  "not found": ["Nicht gefunden", "Introuvable", "No encontrado", "Niet gevonden", "לא נמצא", "غير موجود"],
  "not found.": [
    "Nicht gefunden.",
    "Introuvable.",
    "No encontrado.",
    "Niet gevonden.",
    "לא נמצא.",
    "غير موجود.",
  ],
  "no entry found": [
    "Kein Eintrag gefunden",
    "Aucune entrée trouvée",
    "No se encontró ninguna entrada",
    "Geen item gevonden",
    "לא נמצאה רשומה",
    "لم يتم العثور على أي إدخال",
  ],
  "file not found": [
    "Datei nicht gefunden",
    "Fichier introuvable",
    "Archivo no encontrado",
    "Bestand niet gevonden",
    "הקובץ לא נמצא",
    "الملف غير موجود",
  ],
  "user not found": [
    "Benutzer nicht gefunden",
    "Utilisateur introuvable",
    "Usuario no encontrado",
    "Gebruiker niet gevonden",
    "המשתמש לא נמצא",
    "المستخدم غير موجود",
  ],
  "group not found": [
    "Gruppe nicht gefunden",
    "Groupe introuvable",
    "Grupo no encontrado",
    "Groep niet gevonden",
    "הקבוצה לא נמצאה",
    "المجموعة غير موجودة",
  ],
  "household not found": [
    "Haushalt nicht gefunden",
    "Foyer introuvable",
    "Hogar no encontrado",
    "Huishouden niet gevonden",
    "משק הבית לא נמצא",
    "الأسرة غير موجودة",
  ],
  "recipe not found": [
    "Rezept nicht gefunden",
    "Recette introuvable",
    "Receta no encontrada",
    "Recept niet gevonden",
    "המתכון לא נמצא",
    "الوصفة غير موجودة",
  ],
  "cookbook not found": [
    "Kochbuch nicht gefunden",
    "Livre de recettes introuvable",
    "Recetario no encontrado",
    "Kookboek niet gevonden",
    "ספר המתכונים לא נמצא",
    "كتاب الطبخ غير موجود",
  ],
  "token not found": [
    "Token nicht gefunden",
    "Jeton introuvable",
    "Token no encontrado",
    "Token niet gevonden",
    "האסימון לא נמצא",
    "الرمز غير موجود",
  ],
  "method not allowed": [
    "Methode nicht erlaubt",
    "Méthode non autorisée",
    "Método no permitido",
    "Methode niet toegestaan",
    "השיטה אינה מותרת",
    "الطريقة غير مسموح بها",
  ],
  "group name is taken": [
    "Gruppenname ist bereits vergeben",
    "ce nom de groupe est déjà pris",
    "el nombre del grupo ya está en uso",
    "groepsnaam is al in gebruik",
    "שם הקבוצה תפוס",
    "اسم المجموعة مستخدم بالفعل",
  ],
  "username is taken": [
    "Benutzername ist vergeben",
    "ce nom d'utilisateur est déjà pris",
    "el nombre de usuario ya está en uso",
    "gebruikersnaam is al in gebruik",
    "שם המשתמש תפוס",
    "اسم المستخدم مستخدم بالفعل",
  ],
  "email is taken": [
    "E-Mail ist vergeben",
    "cet e-mail est déjà utilisé",
    "el correo electrónico ya está en uso",
    "e-mailadres is al in gebruik",
    "כתובת הדוא״ל תפוסה",
    "البريد الإلكتروني مستخدم بالفعل",
  ],
  "this field is required": [
    "Dieses Feld ist erforderlich",
    "Ce champ est obligatoire",
    "Este campo es obligatorio",
    "Dit veld is verplicht",
    "שדה חובה",
    "هذا الحقل مطلوب",
  ],
  "email must be valid": [
    "E-Mail muss gültig sein",
    "L'e-mail doit être valide",
    "El correo electrónico debe ser válido",
    "E-mailadres moet geldig zijn",
    "כתובת הדוא״ל חייבת להיות תקינה",
    "يجب أن يكون البريد الإلكتروني صالحًا",
  ],
  "passwords must match": [
    "Passwörter müssen übereinstimmen",
    "les mots de passe doivent être identiques",
    "las contraseñas deben coincidir",
    "wachtwoorden moeten overeenkomen",
    "הסיסמאות חייבות להיות זהות",
    "يجب أن تتطابق كلمتا المرور",
  ],
  "field required": [
    "Feld erforderlich",
    "Champ obligatoire",
    "Campo obligatorio",
    "Veld verplicht",
    "שדה חובה",
    "الحقل مطلوب",
  ],
  "input should be a valid uuid": [
    "Die Eingabe muss eine gültige UUID sein",
    "La valeur doit être un UUID valide",
    "La entrada debe ser un UUID válido",
    "De invoer moet een geldige UUID zijn",
    "הקלט חייב להיות UUID תקין",
    "يجب أن يكون الإدخال UUID صالحًا",
  ],
  "input should be a valid integer, unable to parse string as an integer": [
    "Die Eingabe muss eine ganze Zahl sein",
    "La valeur doit être un nombre entier",
    "La entrada debe ser un número entero",
    "De invoer moet een geheel getal zijn",
    "הקלט חייב להיות מספר שלם",
    "يجب أن يكون الإدخال عددًا صحيحًا",
  ],
  "input should be a valid list": [
    "Die Eingabe muss eine Liste sein",
    "La valeur doit être une liste",
    "La entrada debe ser una lista",
    "De invoer moet een lijst zijn",
    "הקלט חייב להיות רשימה",
    "يجب أن يكون الإدخال قائمة",
  ],
  "unknown error": [
    "Unbekannter Fehler",
    "Erreur inconnue",
    "Error desconocido",
    "Onbekende fout",
    "שגיאה לא ידועה",
    "خطأ غير معروف",
  ],
};

/** Messages with a value in them: the value is kept as it is and isolated in right-to-left text. */
const PATTERNS: [RegExp, Row][] = [
  [
    /^A recipe named "(.+)" already exists$/,
    [
      "Ein Rezept namens „$1“ existiert bereits",
      "Une recette nommée « $1 » existe déjà",
      "Ya existe una receta llamada «$1»",
      "Er bestaat al een recept met de naam ‘$1’",
      "כבר קיים מתכון בשם „$1”",
      "توجد بالفعل وصفة باسم «$1»",
    ],
  ],
  [
    /^The recipe file (\S+) changed on disk since it was read; the version on disk has been loaded\. Reload the recipe and try again$/,
    [
      "Die Rezeptdatei $1 wurde seit dem Lesen auf der Festplatte geändert; die Fassung von der Festplatte wurde geladen. Lade das Rezept neu und versuche es erneut",
      "Le fichier de recette $1 a changé sur le disque depuis sa lecture ; la version du disque a été chargée. Rechargez la recette et réessayez",
      "El archivo de receta $1 cambió en el disco desde que se leyó; se ha cargado la versión del disco. Recarga la receta e inténtalo de nuevo",
      "Het receptbestand $1 is op schijf gewijzigd sinds het werd gelezen; de versie op schijf is geladen. Herlaad het recept en probeer het opnieuw",
      "קובץ המתכון $1 השתנה בדיסק מאז שנקרא; הגרסה שבדיסק נטענה. טענו את המתכון מחדש ונסו שוב",
      "تغيّر ملف الوصفة $1 على القرص منذ قراءته؛ وتم تحميل النسخة الموجودة على القرص. أعد تحميل الوصفة وحاول مرة أخرى",
    ],
  ],
  [
    /^(?:String should have at least|Must Be At Least) (\d+) characters?$/i,
    [
      "Muss mindestens $1 Zeichen lang sein",
      "Doit comporter au moins $1 caractères",
      "Debe tener al menos $1 caracteres",
      "Moet minstens $1 tekens lang zijn",
      "לפחות $1 תווים",
      "يجب ألا يقل عن $1 حرفًا",
    ],
  ],
  [
    /^(?:String should have at most|Must Be At Most) (\d+) characters?$/i,
    [
      "Darf höchstens $1 Zeichen lang sein",
      "Doit comporter au plus $1 caractères",
      "Debe tener como máximo $1 caracteres",
      "Mag hoogstens $1 tekens lang zijn",
      "לכל היותר $1 תווים",
      "يجب ألا يزيد على $1 حرفًا",
    ],
  ],
];

const RTL = new Set<string>(["he-IL", "ar-SA"]);

/**
 * The catalogue language for an Accept-Language header (quality order; exact tag, then same language),
 * or null for English: no header, `*`, English, or a language without a catalogue here.
 */
export function apiMessageLanguage(header: string | null | undefined): ApiMessageLanguage | null {
  if (!header) return null;
  const wanted = header
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    if (tag === "*" || tag === "en" || tag.startsWith("en-")) return null;
    const base = tag.split("-")[0];
    const hit =
      API_MESSAGE_LANGUAGES.find((l) => l.toLowerCase() === tag) ??
      API_MESSAGE_LANGUAGES.find((l) => l.toLowerCase().split("-")[0] === base);
    if (hit) return hit;
  }
  return null;
}

/** One message in `lang`, or the English message when the catalogue does not know it. */
export function translateApiMessage(message: string, lang: ApiMessageLanguage): string {
  const col = API_MESSAGE_LANGUAGES.indexOf(lang);
  const exact = EXACT[message.toLowerCase()];
  if (exact) return exact[col];
  for (const [re, row] of PATTERNS) {
    const m = re.exec(message);
    if (!m) continue;
    const value = RTL.has(lang) ? `\u2068${m[1]}\u2069` : m[1];
    return row[col].replace("$1", () => value);
  }
  return message;
}

/**
 * An error response body (`{"detail": …}` in any of Mealie's shapes) with its messages in `lang`:
 * a string detail, `detail.message`, or each `msg` of a 422 list. Everything else is kept.
 */
export function localizeErrorBody(body: unknown, lang: ApiMessageLanguage | null): unknown {
  if (!lang || !body || typeof body !== "object" || !("detail" in body)) return body;
  const detail = (body as { detail: unknown }).detail;
  const tr = (s: string) => translateApiMessage(s, lang);
  if (typeof detail === "string") return { ...body, detail: tr(detail) };
  if (Array.isArray(detail))
    return {
      ...body,
      detail: detail.map((d: unknown) =>
        d && typeof d === "object" && typeof (d as { msg?: unknown }).msg === "string"
          ? { ...d, msg: tr((d as { msg: string }).msg) }
          : d,
      ),
    };
  if (detail && typeof detail === "object" && typeof (detail as { message?: unknown }).message === "string")
    return { ...body, detail: { ...detail, message: tr((detail as { message: string }).message) } };
  return body;
}
