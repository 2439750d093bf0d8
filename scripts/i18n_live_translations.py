"""The hi, es, de and ar translations of the live match path's messages (docs/i18n.md
"Live play"), filled into locale/*/LC_MESSAGES/django.po with polib: run from the
project folder after `make messages`, then `make messages` again to compile.
Only these entries are written; every other entry is left as it is."""
# ruff: noqa: E501 - one translation per line

import polib

# (ctx, msgid): {lang: str or [plural forms]}
T = {}


def t(msgid, de, es, hi, ar, ctx=None):
    T[(ctx, msgid)] = {"de": de, "es": es, "hi": hi, "ar": ar}

t("You are banned from playing.", "Du bist vom Spielen ausgeschlossen.", "Tienes prohibido jugar.", "आप पर खेलने की रोक लगी है।", "أنت ممنوع من اللعب.")
t("You are no longer logged in: you logged out, or the password was changed. Log in again to continue.",
  "Du bist nicht mehr angemeldet: Du hast dich abgemeldet, oder das Passwort wurde geändert. Melde dich wieder an, um weiterzumachen.",
  "Ya no tienes la sesión iniciada: cerraste sesión o se cambió la contraseña. Inicia sesión de nuevo para continuar.",
  "आप अब साइन इन नहीं हैं: आपने साइन आउट किया, या पासवर्ड बदल दिया गया। जारी रखने के लिए फिर से साइन इन करें।",
  "لم تعد مسجّل الدخول: سجّلت الخروج، أو تغيّرت كلمة المرور. سجّل الدخول مجددًا للمتابعة.")
t("Disconnected: too many messages. Reload the page to continue.",
  "Verbindung getrennt: zu viele Nachrichten. Lade die Seite neu, um weiterzumachen.",
  "Desconectado: demasiados mensajes. Recarga la página para continuar.",
  "कनेक्शन टूट गया: बहुत ज़्यादा संदेश। जारी रखने के लिए पेज फिर से लोड करें।",
  "انقطع الاتصال: رسائل كثيرة جدًا. أعد تحميل الصفحة للمتابعة.")
t("Disconnected: a message was too large. Reload the page to continue.",
  "Verbindung getrennt: eine Nachricht war zu groß. Lade die Seite neu, um weiterzumachen.",
  "Desconectado: un mensaje era demasiado grande. Recarga la página para continuar.",
  "कनेक्शन टूट गया: एक संदेश बहुत बड़ा था। जारी रखने के लिए पेज फिर से लोड करें।",
  "انقطع الاتصال: كانت إحدى الرسائل كبيرة جدًا. أعد تحميل الصفحة للمتابعة.")
t("Disconnected: too many Parlour pages are open at once, so the oldest closed. Close some, then reload this page.",
  "Verbindung getrennt: Es sind zu viele Parlour-Seiten gleichzeitig offen, deshalb wurde die älteste geschlossen. Schließe einige und lade diese Seite dann neu.",
  "Desconectado: hay demasiadas páginas de Parlour abiertas a la vez, así que se cerró la más antigua. Cierra algunas y luego recarga esta página.",
  "कनेक्शन टूट गया: एक साथ बहुत सारे Parlour पेज खुले हैं, इसलिए सबसे पुराना बंद हो गया। कुछ बंद करें, फिर यह पेज दोबारा लोड करें।",
  "انقطع الاتصال: صفحات Parlour المفتوحة في الوقت نفسه كثيرة جدًا، فأُغلقت أقدمها. أغلق بعضها ثم أعد تحميل هذه الصفحة.")
t("There is no such match, or it is private.", "Diese Partie gibt es nicht, oder sie ist privat.", "Esa partida no existe o es privada.", "ऐसा कोई मैच नहीं है, या वह निजी है।", "لا توجد مباراة كهذه، أو أنها خاصة.")
t("You are no longer in this room.", "Du bist nicht mehr in diesem Raum.", "Ya no estás en esta sala.", "आप अब इस कमरे में नहीं हैं।", "لم تعد في هذه الغرفة.")
t("There is no such room, or you are not in it.", "Diesen Raum gibt es nicht, oder du bist nicht darin.", "Esa sala no existe o no estás en ella.", "ऐसा कोई कमरा नहीं है, या आप उसमें नहीं हैं।", "لا توجد غرفة كهذه، أو أنك لست فيها.")
t("Disconnected: too many Parlour pages are open at once, so the oldest closed (and left the queue). Close some, then reload this page.",
  "Verbindung getrennt: Es sind zu viele Parlour-Seiten gleichzeitig offen, deshalb wurde die älteste geschlossen (und hat die Warteschlange verlassen). Schließe einige und lade diese Seite dann neu.",
  "Desconectado: hay demasiadas páginas de Parlour abiertas a la vez, así que se cerró la más antigua (y salió de la cola). Cierra algunas y luego recarga esta página.",
  "कनेक्शन टूट गया: एक साथ बहुत सारे Parlour पेज खुले हैं, इसलिए सबसे पुराना बंद हो गया (और कतार से निकल गया)। कुछ बंद करें, फिर यह पेज दोबारा लोड करें।",
  "انقطع الاتصال: صفحات Parlour المفتوحة في الوقت نفسه كثيرة جدًا، فأُغلقت أقدمها (وغادرت قائمة الانتظار). أغلق بعضها ثم أعد تحميل هذه الصفحة.")
t("That message is not valid JSON.", "Diese Nachricht ist kein gültiges JSON.", "Ese mensaje no es JSON válido.", "यह संदेश मान्य JSON नहीं है।", "هذه الرسالة ليست JSON صالحًا.")
t("Messages are JSON objects.", "Nachrichten sind JSON-Objekte.", "Los mensajes son objetos JSON.", "संदेश JSON ऑब्जेक्ट होते हैं।", "الرسائل كائنات JSON.")
t("Unknown message.", "Unbekannte Nachricht.", "Mensaje desconocido.", "अनजान संदेश।", "رسالة غير معروفة.")
t("There is no such match.", "Diese Partie gibt es nicht.", "Esa partida no existe.", "ऐसा कोई मैच नहीं है।", "لا توجد مباراة كهذه.")
t("Log in to play.", "Melde dich an, um zu spielen.", "Inicia sesión para jugar.", "खेलने के लिए साइन इन करें।", "سجّل الدخول لتلعب.")
t("You have no seat in this match.", "Du hast keinen Platz in dieser Partie.", "No tienes puesto en esta partida.", "इस मैच में आपकी कोई सीट नहीं है।", "ليس لك مقعد في هذه المباراة.")
t("The match is paused.", "Die Partie ist pausiert.", "La partida está en pausa.", "मैच रुका हुआ है।", "المباراة متوقفة مؤقتًا.")
t("The match is not being played.", "Die Partie wird gerade nicht gespielt.", "La partida no se está jugando.", "यह मैच अभी खेला नहीं जा रहा है।", "المباراة لا تُلعب الآن.")
t("%(move)s is not a legal move now.", "%(move)s ist jetzt kein erlaubter Zug.", "%(move)s no es una jugada válida ahora.", "%(move)s अभी मान्य चाल नहीं है।", "‏%(move)s ليست نقلة مسموحة الآن.")
t("Your page is out of date: the match has moved on (it is at version %(version)s); here is the current position.",
  "Deine Seite ist veraltet: Die Partie ist weitergegangen (sie ist bei Version %(version)s); hier ist die aktuelle Stellung.",
  "Tu página está desactualizada: la partida avanzó (va en la versión %(version)s); aquí está la posición actual.",
  "आपका पेज पुराना है: मैच आगे बढ़ चुका है (वह संस्करण %(version)s पर है); यह रही अभी की स्थिति।",
  "صفحتك قديمة: تقدّمت المباراة (هي الآن في الإصدار %(version)s)؛ إليك الوضع الحالي.")
t("Too late: your time ran out before this move arrived, so it was not played.",
  "Zu spät: Deine Zeit war abgelaufen, bevor dieser Zug ankam, deshalb wurde er nicht gespielt.",
  "Demasiado tarde: tu tiempo se acabó antes de que llegara esta jugada, así que no se jugó.",
  "बहुत देर हो गई: यह चाल पहुँचने से पहले आपका समय खत्म हो गया, इसलिए यह नहीं चली गई।",
  "فات الأوان: نفد وقتك قبل وصول هذه النقلة، فلم تُلعب.")
t("You have already left this match.", "Du hast diese Partie bereits verlassen.", "Ya abandonaste esta partida.", "आप यह मैच पहले ही छोड़ चुके हैं।", "لقد غادرت هذه المباراة من قبل.")
t("You have left this match.", "Du hast diese Partie verlassen.", "Abandonaste esta partida.", "आप यह मैच छोड़ चुके हैं।", "لقد غادرت هذه المباراة.")
t("Your account is banned, so you cannot play.", "Dein Konto ist gesperrt, deshalb kannst du nicht spielen.", "Tu cuenta está bloqueada, así que no puedes jugar.", "आपका खाता प्रतिबंधित है, इसलिए आप नहीं खेल सकते।", "حسابك محظور، لذا لا يمكنك اللعب.")
t("Send between 1 and %(most)s moves at once.", "Sende zwischen 1 und %(most)s Zügen auf einmal.", "Envía entre 1 y %(most)s jugadas a la vez.", "एक बार में 1 से %(most)s चालें भेजें।", "أرسل من 1 إلى %(most)s نقلات في المرة الواحدة.")
t("Those moves cannot all be played in one go.", "Diese Züge können nicht alle auf einmal gespielt werden.", "Esas jugadas no se pueden jugar todas de una vez.", "ये सभी चालें एक साथ नहीं चली जा सकतीं।", "لا يمكن لعب هذه النقلات كلها دفعة واحدة.")
t("It is not your turn.", "Du bist nicht am Zug.", "No es tu turno.", "अभी आपकी बारी नहीं है।", "ليس دورك.")
t("Only the host can pause this match.", "Nur der Gastgeber kann diese Partie pausieren.", "Solo el anfitrión puede pausar esta partida.", "केवल होस्ट यह मैच रोक सकता है।", "يستطيع المضيف وحده إيقاف هذه المباراة مؤقتًا.")
t("Only a live match can be paused.", "Nur eine laufende Live-Partie kann pausiert werden.", "Solo se puede pausar una partida en vivo.", "केवल लाइव मैच ही रोका जा सकता है।", "لا يمكن إيقاف إلا مباراة مباشرة مؤقتًا.")
t("You have paused this match often lately; wait a few minutes.", "Du hast diese Partie in letzter Zeit oft pausiert; warte ein paar Minuten.", "Pausaste esta partida muchas veces hace poco; espera unos minutos.", "आपने हाल में यह मैच कई बार रोका है; कुछ मिनट रुकें।", "أوقفت هذه المباراة مؤقتًا مرات كثيرة مؤخرًا؛ انتظر بضع دقائق.")
t("Only the host can resume this match.", "Nur der Gastgeber kann diese Partie fortsetzen.", "Solo el anfitrión puede reanudar esta partida.", "केवल होस्ट यह मैच फिर शुरू कर सकता है।", "يستطيع المضيف وحده استئناف هذه المباراة.")
t("This match is not paused.", "Diese Partie ist nicht pausiert.", "Esta partida no está en pausa.", "यह मैच रुका हुआ नहीं है।", "هذه المباراة ليست متوقفة مؤقتًا.")
t("You are in %(playing)s turn-based match; one player may be in at most %(limit)s at once. Finish or leave one of them (Your matches) to start another.",
  ["Du spielst in %(playing)s Fernpartie; ein Spieler darf in höchstens %(limit)s gleichzeitig sein. Beende oder verlasse eine davon (Deine Partien), um eine neue zu beginnen.",
   "Du spielst in %(playing)s Fernpartien; ein Spieler darf in höchstens %(limit)s gleichzeitig sein. Beende oder verlasse eine davon (Deine Partien), um eine neue zu beginnen."],
  ["Estás en %(playing)s partida por turnos; un jugador puede estar en %(limit)s como máximo a la vez. Termina o abandona una (Tus partidas) para empezar otra.",
   "Estás en %(playing)s partidas por turnos; un jugador puede estar en %(limit)s como máximo a la vez. Termina o abandona una (Tus partidas) para empezar otra.",
   "Estás en %(playing)s partidas por turnos; un jugador puede estar en %(limit)s como máximo a la vez. Termina o abandona una (Tus partidas) para empezar otra."],
  ["आप %(playing)s बारी-आधारित मैच में हैं; एक खिलाड़ी एक साथ ज़्यादा से ज़्यादा %(limit)s में हो सकता है। नया शुरू करने के लिए उनमें से एक पूरा करें या छोड़ें (आपके मैच)।",
   "आप %(playing)s बारी-आधारित मैचों में हैं; एक खिलाड़ी एक साथ ज़्यादा से ज़्यादा %(limit)s में हो सकता है। नया शुरू करने के लिए उनमें से एक पूरा करें या छोड़ें (आपके मैच)।"],
  ["أنت في %(playing)s مباراة بالأدوار؛ يمكن للاعب أن يكون في %(limit)s على الأكثر في الوقت نفسه. أنهِ إحداها أو غادرها (مبارياتك) لتبدأ أخرى."] * 6)
t("%(name)s is in %(playing)s turn-based match; one player may be in at most %(limit)s at once. The match can start when one of them ends.",
  ["%(name)s spielt in %(playing)s Fernpartie; ein Spieler darf in höchstens %(limit)s gleichzeitig sein. Die Partie kann beginnen, sobald eine davon endet.",
   "%(name)s spielt in %(playing)s Fernpartien; ein Spieler darf in höchstens %(limit)s gleichzeitig sein. Die Partie kann beginnen, sobald eine davon endet."],
  ["%(name)s está en %(playing)s partida por turnos; un jugador puede estar en %(limit)s como máximo a la vez. La partida podrá empezar cuando termine una.",
   "%(name)s está en %(playing)s partidas por turnos; un jugador puede estar en %(limit)s como máximo a la vez. La partida podrá empezar cuando termine una.",
   "%(name)s está en %(playing)s partidas por turnos; un jugador puede estar en %(limit)s como máximo a la vez. La partida podrá empezar cuando termine una."],
  ["%(name)s %(playing)s बारी-आधारित मैच में है; एक खिलाड़ी एक साथ ज़्यादा से ज़्यादा %(limit)s में हो सकता है। उनमें से एक खत्म होने पर मैच शुरू हो सकता है।",
   "%(name)s %(playing)s बारी-आधारित मैचों में है; एक खिलाड़ी एक साथ ज़्यादा से ज़्यादा %(limit)s में हो सकता है। उनमें से एक खत्म होने पर मैच शुरू हो सकता है।"],
  ["%(name)s في %(playing)s مباراة بالأدوار؛ يمكن للاعب أن يكون في %(limit)s على الأكثر في الوقت نفسه. يمكن أن تبدأ المباراة عندما تنتهي إحداها."] * 6)
t("You are playing %(playing)s match against computers already, the most one player may play at once (%(limit)s). Finish or leave one of them (Your matches) to start another.",
  ["Du spielst schon %(playing)s Partie gegen Computerspieler, so viele, wie ein Spieler gleichzeitig spielen darf (%(limit)s). Beende oder verlasse eine davon (Deine Partien), um eine neue zu beginnen.",
   "Du spielst schon %(playing)s Partien gegen Computerspieler, so viele, wie ein Spieler gleichzeitig spielen darf (%(limit)s). Beende oder verlasse eine davon (Deine Partien), um eine neue zu beginnen."],
  ["Ya juegas %(playing)s partida contra la computadora, el máximo que un jugador puede jugar a la vez (%(limit)s). Termina o abandona una (Tus partidas) para empezar otra.",
   "Ya juegas %(playing)s partidas contra la computadora, el máximo que un jugador puede jugar a la vez (%(limit)s). Termina o abandona una (Tus partidas) para empezar otra.",
   "Ya juegas %(playing)s partidas contra la computadora, el máximo que un jugador puede jugar a la vez (%(limit)s). Termina o abandona una (Tus partidas) para empezar otra."],
  ["आप पहले से कंप्यूटर खिलाड़ियों के ख़िलाफ़ %(playing)s मैच खेल रहे हैं, जितने एक खिलाड़ी एक साथ खेल सकता है (%(limit)s)। नया शुरू करने के लिए उनमें से एक पूरा करें या छोड़ें (आपके मैच)।",
   "आप पहले से कंप्यूटर खिलाड़ियों के ख़िलाफ़ %(playing)s मैच खेल रहे हैं, जितने एक खिलाड़ी एक साथ खेल सकता है (%(limit)s)। नया शुरू करने के लिए उनमें से एक पूरा करें या छोड़ें (आपके मैच)।"],
  ["أنت تلعب بالفعل %(playing)s مباراة ضد لاعبي الحاسوب، وهو أقصى ما يمكن للاعب أن يلعبه في الوقت نفسه (%(limit)s). أنهِ إحداها أو غادرها (مبارياتك) لتبدأ أخرى."] * 6)
t("This match has already started.", "Diese Partie hat schon begonnen.", "Esta partida ya empezó.", "यह मैच पहले ही शुरू हो चुका है।", "بدأت هذه المباراة بالفعل.")
t("Good luck", "Viel Glück", "Buena suerte", "शुभकामनाएँ", "حظًا سعيدًا")
t("Nice move", "Schöner Zug", "Buena jugada", "बढ़िया चाल", "نقلة جميلة")
t("Well played", "Gut gespielt", "Bien jugado", "बहुत बढ़िया खेले", "أحسنت اللعب")
t("Oops", "Hoppla", "Uy", "ओह", "عفوًا")
t("Thanks", "Danke", "Gracias", "धन्यवाद", "شكرًا")
t("Good game", "Gutes Spiel", "Buena partida", "अच्छा मैच", "مباراة جيدة")
t("smile", "Lächeln", "sonrisa", "मुस्कान", "ابتسامة")
t("laugh", "Lachen", "risa", "हँसी", "ضحك")
t("wow", "Wow", "guau", "वाह", "رائع")
t("sad", "traurig", "triste", "उदास", "حزين")
t("thumbs up", "Daumen hoch", "pulgar arriba", "अंगूठा ऊपर", "إعجاب")
t("clap", "Applaus", "aplausos", "ताली", "تصفيق")
t("party", "Party", "fiesta", "जश्न", "احتفال")
t("fire", "Feuer", "fuego", "आग", "نار")
t("heart", "Herz", "corazón", "दिल", "قلب")
t("thinking", "nachdenklich", "pensando", "सोच रहे हैं", "تفكير")
t("dice", "Würfel", "dados", "पासे", "النرد")
t("wave", "Winken", "saludo", "हाथ हिलाना", "تلويح")
t("Only the preset messages can be sent.", "Nur die vorgegebenen Nachrichten können gesendet werden.", "Solo se pueden enviar los mensajes predefinidos.", "केवल पहले से तय संदेश ही भेजे जा सकते हैं।", "لا يمكن إرسال غير الرسائل الجاهزة.")
t("Log in to chat.", "Melde dich an, um zu chatten.", "Inicia sesión para chatear.", "चैट करने के लिए साइन इन करें।", "سجّل الدخول للدردشة.")
t("You are sending messages too fast; wait a few seconds.", "Du sendest Nachrichten zu schnell; warte ein paar Sekunden.", "Estás enviando mensajes demasiado rápido; espera unos segundos.", "आप बहुत तेज़ी से संदेश भेज रहे हैं; कुछ सेकंड रुकें।", "أنت ترسل الرسائل بسرعة كبيرة؛ انتظر بضع ثوانٍ.")
t("%(days)s day", ["%(days)s Tag", "%(days)s Tage"], ["%(days)s día", "%(days)s días", "%(days)s días"],
  ["%(days)s दिन", "%(days)s दिन"],
  ["%(days)s يوم", "يوم واحد", "يومان", "%(days)s أيام", "%(days)s يومًا", "%(days)s يوم"])
t("%(days)s %(hours)s h", "%(days)s %(hours)s Std.", "%(days)s %(hours)s h", "%(days)s %(hours)s घं.", "%(days)s و%(hours)s س")
t("%(hours)s h %(minutes)s min", "%(hours)s Std. %(minutes)s Min.", "%(hours)s h %(minutes)s min", "%(hours)s घं. %(minutes)s मि.", "%(hours)s س %(minutes)s د")
t("%(hours)s h", "%(hours)s Std.", "%(hours)s h", "%(hours)s घं.", "%(hours)s س")
t("%(minutes)s min", "%(minutes)s Min.", "%(minutes)s min", "%(minutes)s मि.", "%(minutes)s د")
t("%(seconds)s s", "%(seconds)s s", "%(seconds)s s", "%(seconds)s से.", "%(seconds)s ث")
t("You are watching this match; only its players can move.", "Du schaust dieser Partie zu; nur ihre Spieler können ziehen.", "Estás mirando esta partida; solo sus jugadores pueden mover.", "आप यह मैच देख रहे हैं; केवल इसके खिलाड़ी चाल चल सकते हैं।", "أنت تشاهد هذه المباراة؛ لا يلعب النقلات إلا لاعبوها.")
t("A move needs a move and a version.", "Ein Zug braucht einen Zug und eine Version.", "Una jugada necesita una jugada y una versión.", "चाल के लिए एक चाल और एक संस्करण चाहिए।", "النقلة تحتاج إلى نقلة وإصدار.")
t("Only the players of this match can chat.", "Nur die Spieler dieser Partie können chatten.", "Solo los jugadores de esta partida pueden chatear.", "केवल इस मैच के खिलाड़ी चैट कर सकते हैं।", "لا يدردش إلا لاعبو هذه المباراة.")
t("%(days)s days", "%(days)s Tage", "%(days)s días", "%(days)s दिन", "%(days)s أيام")
t("%(seconds)s second", ["%(seconds)s Sekunde", "%(seconds)s Sekunden"], ["%(seconds)s segundo", "%(seconds)s segundos", "%(seconds)s segundos"],
  ["%(seconds)s सेकंड", "%(seconds)s सेकंड"],
  ["%(seconds)s ثانية", "ثانية واحدة", "ثانيتان", "%(seconds)s ثوانٍ", "%(seconds)s ثانية", "%(seconds)s ثانية"])
t("%(game)s with %(others)s", "%(game)s mit %(others)s", "%(game)s con %(others)s", "%(others)s के साथ %(game)s", "%(game)s مع %(others)s")
t("nobody yet", "noch niemandem", "nadie todavía", "अभी कोई नहीं", "لا أحد بعد")
t("Paused", "Pausiert", "En pausa", "रुका हुआ", "متوقفة مؤقتًا", ctx="match")
t("Starting", "Beginnt", "Por empezar", "शुरू हो रहा है", "تبدأ", ctx="match")
t("Your turn", "Du bist am Zug", "Tu turno", "आपकी बारी", "دورك")
t("Waiting for %(name)s", "Wartet auf %(name)s", "Esperando a %(name)s", "%(name)s का इंतज़ार", "بانتظار %(name)s")
t("Waiting for the others", "Wartet auf die anderen", "Esperando a los demás", "बाकी खिलाड़ियों का इंतज़ार", "بانتظار الآخرين")
t("%(seconds)s s left", "noch %(seconds)s s", "quedan %(seconds)s s", "%(seconds)s से. बाकी", "بقي %(seconds)s ث")
t("%(time)s left", "noch %(time)s", "quedan %(time)s", "%(time)s बाकी", "بقي %(time)s")
t("%(control)s a move", "%(control)s pro Zug", "%(control)s por jugada", "हर चाल के लिए %(control)s", "%(control)s لكل نقلة")
t("Your turn in %(game)s with %(others)s", "Du bist am Zug: %(game)s mit %(others)s", "Tu turno en %(game)s con %(others)s", "%(others)s के साथ %(game)s में आपकी बारी", "دورك في %(game)s مع %(others)s")
t("Chat", "Chat", "Chat", "चैट", "الدردشة")
t("Chat messages", "Chatnachrichten", "Mensajes del chat", "चैट संदेश", "رسائل الدردشة")
t("%(game)s match %(id)s", "%(game)s-Partie %(id)s", "Partida de %(game)s %(id)s", "%(game)s मैच %(id)s", "مباراة %(game)s %(id)s")
t("match %(id)s", "Partie %(id)s", "partida %(id)s", "मैच %(id)s", "مباراة %(id)s")
t("10 seconds left to decide.", "Noch 10 Sekunden zum Entscheiden.", "Quedan 10 segundos para decidir.", "फ़ैसला करने के लिए 10 सेकंड बाकी।", "بقيت 10 ثوانٍ لتقرّر.")
t("More about this match", "Mehr zu dieser Partie", "Más sobre esta partida", "इस मैच के बारे में और", "المزيد عن هذه المباراة")
t("Moves", "Züge", "Jugadas", "चालें", "النقلات")
t("Settings", "Einstellungen", "Ajustes", "सेटिंग्स", "الإعدادات")
t("Every %(step)s of this match comes from a secret seed fixed before the first one.",
  "Jeder %(step)s dieser Partie stammt aus einem geheimen Seed, der vor dem ersten festgelegt wurde.",
  "Cada %(step)s de esta partida sale de una semilla secreta fijada antes del primero.",
  "इस मैच का हर %(step)s पहले वाले से पहले तय किए गए एक गुप्त सीड से आता है।",
  "كل %(step)s في هذه المباراة يأتي من بذرة سرية ثُبّتت قبل الأول.")
t('Its SHA-256 fingerprint: <code class="hash">%(hash)s</code>.',
  'Sein SHA-256-Fingerabdruck: <code class="hash">%(hash)s</code>.',
  'Su huella SHA-256: <code class="hash">%(hash)s</code>.',
  'उसका SHA-256 फ़िंगरप्रिंट: <code class="hash">%(hash)s</code>।',
  'بصمتها SHA-256: <code class="hash">%(hash)s</code>.')
t('The match is over, so the seed is revealed: <code class="hash">%(seed)s</code>.',
  'Die Partie ist vorbei, deshalb ist der Seed offengelegt: <code class="hash">%(seed)s</code>.',
  'La partida terminó, así que la semilla se revela: <code class="hash">%(seed)s</code>.',
  'मैच खत्म हो गया है, इसलिए सीड बता दिया गया है: <code class="hash">%(seed)s</code>।',
  'انتهت المباراة، لذا كُشفت البذرة: <code class="hash">%(seed)s</code>.')
t('With it anyone can recompute every chance outcome (see the <a href="%(rules_url)s#fairness">rules page</a>).',
  'Damit kann jeder jedes Zufallsergebnis nachrechnen (siehe die <a href="%(rules_url)s#fairness">Regelseite</a>).',
  'Con ella cualquiera puede recalcular cada resultado del azar (mira la <a href="%(rules_url)s#fairness">página de reglas</a>).',
  'इससे कोई भी हर संयोग का नतीजा फिर से निकाल सकता है (<a href="%(rules_url)s#fairness">नियम पेज</a> देखें)।',
  'بها يستطيع أي أحد إعادة حساب كل نتيجة للحظ (انظر <a href="%(rules_url)s#fairness">صفحة القواعد</a>).')
t("The seed itself is revealed when the match ends.", "Der Seed selbst wird offengelegt, wenn die Partie endet.", "La semilla se revela cuando termina la partida.", "सीड खुद मैच खत्म होने पर बताया जाता है।", "تُكشف البذرة نفسها عند انتهاء المباراة.")
t("This device", "Dieses Gerät", "Este dispositivo", "यह डिवाइस", "هذا الجهاز")
t("Settings kept in this browser", "Einstellungen, die dieser Browser speichert", "Ajustes guardados en este navegador", "इस ब्राउज़र में रखी सेटिंग्स", "إعدادات محفوظة في هذا المتصفح")
t("Sound", "Ton", "Sonido", "आवाज़", "الصوت")
t("Dice shown as", "Würfel anzeigen als", "Dados mostrados como", "पासे इस तरह दिखें", "عرض النرد بشكل")
t("Pips", "Augen", "Puntos", "बिंदु", "نقاط")
t("Numbers", "Zahlen", "Números", "अंक", "أرقام")
t("Roll for me when rolling is my only choice", "Für mich würfeln, wenn Würfeln meine einzige Wahl ist", "Tirar por mí cuando tirar es mi única opción", "जब पासा फेंकना ही मेरा अकेला विकल्प हो, तो मेरे लिए फेंकें", "ارمِ النرد عني حين يكون الرمي خياري الوحيد")
t("Keyboard shortcuts on the board", "Tastenkürzel auf dem Spielbrett", "Atajos de teclado en el tablero", "बोर्ड पर कीबोर्ड शॉर्टकट", "اختصارات لوحة المفاتيح على اللوحة")
t("Notify me when it is my turn", "Benachrichtige mich, wenn ich am Zug bin", "Avísame cuando sea mi turno", "मेरी बारी आने पर मुझे सूचित करें", "أعلمني حين يحين دوري")
t("How to play %(game)s", "So spielt man %(game)s", "Cómo jugar a %(game)s", "%(game)s कैसे खेलें", "كيف تلعب %(game)s")
t("Play page", "Spielseite", "Página de juego", "खेल पेज", "صفحة اللعب")
t("Report %(name)s", "%(name)s melden", "Denunciar a %(name)s", "%(name)s की रिपोर्ट करें", "إبلاغ عن %(name)s")
t("<strong>%(name)s</strong> to %(phrase)s.", "<strong>%(name)s</strong> ist am Zug: %(phrase)s.", "Turno de <strong>%(name)s</strong>: %(phrase)s.", "<strong>%(name)s</strong> की बारी: %(phrase)s।", "دور <strong>%(name)s</strong>: %(phrase)s.", ctx="whose turn it is: a name, then what they do")
t("Time left:", "Verbleibende Zeit:", "Tiempo restante:", "बचा समय:", "الوقت المتبقي:")
t("until %(deadline_at)s", "bis %(deadline_at)s", "hasta %(deadline_at)s", "%(deadline_at)s तक", "حتى %(deadline_at)s")
t("Thinking…", "Denkt nach…", "Pensando…", "सोच रहा है…", "يفكّر…")
t("<strong>Paused</strong> by the host. Every clock is stopped.", "Vom Gastgeber <strong>pausiert</strong>. Alle Uhren stehen.", "<strong>En pausa</strong> por el anfitrión. Todos los relojes están detenidos.", "होस्ट ने मैच <strong>रोका</strong> है। सारी घड़ियाँ रुकी हैं।", "<strong>أوقفها المضيف مؤقتًا</strong>. كل الساعات متوقفة.")
t("Match over.", "Partie vorbei.", "Partida terminada.", "मैच खत्म।", "انتهت المباراة.")
t("%(names)s won as the last player left.",
  ["%(names)s hat als letzter verbliebener Spieler gewonnen.", "%(names)s haben als letzte verbliebene Spieler gewonnen."],
  ["%(names)s ganó por ser el último jugador que quedaba.", "%(names)s ganaron por ser los últimos jugadores que quedaban.", "%(names)s ganaron por ser los últimos jugadores que quedaban."],
  ["%(names)s आख़िरी बचे खिलाड़ी के रूप में जीते।", "%(names)s आख़िरी बचे खिलाड़ियों के रूप में जीते।"],
  ["فاز %(names)s بصفتهم آخر من بقي من اللاعبين.", "فاز %(names)s بصفته آخر لاعب بقي.", "فاز %(names)s بصفتهما آخر لاعبَين بقيا.",
   "فاز %(names)s بصفتهم آخر من بقي من اللاعبين.", "فاز %(names)s بصفتهم آخر من بقي من اللاعبين.", "فاز %(names)s بصفتهم آخر من بقي من اللاعبين."])
t("%(names)s won.", ["%(names)s hat gewonnen.", "%(names)s haben gewonnen."], ["%(names)s ganó.", "%(names)s ganaron.", "%(names)s ganaron."],
  ["%(names)s जीते।", "%(names)s जीते।"],
  ["فاز %(names)s.", "فاز %(names)s.", "فاز %(names)s.", "فاز %(names)s.", "فاز %(names)s.", "فاز %(names)s."])
t("Rating changes", "Wertungsänderungen", "Cambios de puntuación", "रेटिंग में बदलाव", "تغيّرات التصنيف")
t("A moderator voided this match's rating changes: they no longer count.", "Ein Moderator hat die Wertungsänderungen dieser Partie aufgehoben: Sie zählen nicht mehr.", "Un moderador anuló los cambios de puntuación de esta partida: ya no cuentan.", "एक मॉडरेटर ने इस मैच के रेटिंग बदलाव रद्द कर दिए: अब वे नहीं गिने जाते।", "ألغى مشرف تغيّرات التصنيف في هذه المباراة: لم تعد تُحتسب.")
t("Not rated: a player left before every player had moved.", "Nicht gewertet: Ein Spieler hat die Partie verlassen, bevor alle Spieler gezogen hatten.", "No puntuable: un jugador abandonó antes de que todos hubieran movido.", "रेटेड नहीं: सभी खिलाड़ियों की चाल से पहले एक खिलाड़ी ने मैच छोड़ दिया।", "غير مصنّفة: غادر لاعب قبل أن يلعب كل اللاعبين نقلة.")
t("<strong>Match aborted</strong>: no human player is left. It has no result.", "<strong>Partie abgebrochen</strong>: Es ist kein menschlicher Spieler mehr übrig. Sie hat kein Ergebnis.", "<strong>Partida anulada</strong>: no queda ningún jugador humano. No tiene resultado.", "<strong>मैच रद्द</strong>: कोई इंसानी खिलाड़ी नहीं बचा। इसका कोई नतीजा नहीं है।", "<strong>أُلغيت المباراة</strong>: لم يبقَ لاعب بشري. لا نتيجة لها.")
t("<strong>Match aborted</strong> by a moderator. It has no result.", "<strong>Partie</strong> von einem Moderator <strong>abgebrochen</strong>. Sie hat kein Ergebnis.", "<strong>Partida anulada</strong> por un moderador. No tiene resultado.", "एक मॉडरेटर ने <strong>मैच रद्द</strong> किया। इसका कोई नतीजा नहीं है।", "<strong>ألغى مشرف المباراة</strong>. لا نتيجة لها.")
t("<strong>Match aborted</strong>. It has no result.", "<strong>Partie abgebrochen</strong>. Sie hat kein Ergebnis.", "<strong>Partida anulada</strong>. No tiene resultado.", "<strong>मैच रद्द</strong>। इसका कोई नतीजा नहीं है।", "<strong>أُلغيت المباراة</strong>. لا نتيجة لها.")
t("Waiting to start.", "Wartet auf den Beginn.", "Esperando para empezar.", "शुरू होने का इंतज़ार।", "بانتظار البدء.")
t("Replay this match", "Wiederholung dieser Partie", "Repetición de esta partida", "इस मैच का रीप्ले", "إعادة عرض هذه المباراة")
t("Export (JSON)", "Export (JSON)", "Exportar (JSON)", "एक्सपोर्ट (JSON)", "تصدير (JSON)")
t("The random seed, now revealed", "Der Zufalls-Seed, jetzt offengelegt", "La semilla aleatoria, ya revelada", "रैंडम सीड, अब बताया गया", "البذرة العشوائية، وقد كُشفت الآن")
t('(<a href="%(rules_url)s#fairness">how to check it</a>)', '(<a href="%(rules_url)s#fairness">so prüfst du ihn</a>)', '(<a href="%(rules_url)s#fairness">cómo comprobarla</a>)', '(<a href="%(rules_url)s#fairness">इसे कैसे जाँचें</a>)', '(<a href="%(rules_url)s#fairness">كيف تتحقق منها</a>)')
t("Moves (numbered by turn)", "Züge (nach Runden nummeriert)", "Jugadas (numeradas por turno)", "चालें (बारी के हिसाब से क्रमांकित)", "النقلات (مرقّمة حسب الدور)")
t("Your move", "Dein Zug", "Tu jugada", "आपकी चाल", "نقلتك")
t("Waiting for the other players.", "Warten auf die anderen Spieler.", "Esperando a los demás jugadores.", "बाकी खिलाड़ियों का इंतज़ार।", "بانتظار اللاعبين الآخرين.")
t("Abort this match? Not everyone has moved yet, so it will not be rated, for anyone.", "Diese Partie abbrechen? Noch haben nicht alle gezogen, deshalb wird sie für niemanden gewertet.", "¿Anular esta partida? Aún no han movido todos, así que no será puntuable para nadie.", "यह मैच रद्द करें? अभी सबने चाल नहीं चली है, इसलिए यह किसी के लिए रेटेड नहीं होगा।", "هل تلغي هذه المباراة؟ لم يلعب الجميع نقلة بعد، لذا لن تكون مصنّفة لأحد.")
t("Abort (not rated)", "Abbrechen (ungewertet)", "Anular (no puntuable)", "रद्द करें (रेटेड नहीं)", "إلغاء (غير مصنّفة)")
t("Not every player has moved yet: leaving now cancels the rating.", "Noch haben nicht alle Spieler gezogen: Wer jetzt verlässt, hebt die Wertung auf.", "Aún no han movido todos los jugadores: abandonar ahora cancela la puntuación.", "अभी सभी खिलाड़ियों ने चाल नहीं चली है: अभी छोड़ने से रेटिंग रद्द हो जाती है।", "لم يلعب كل اللاعبين نقلة بعد: المغادرة الآن تلغي التصنيف.")
t("Leave this rated match? It counts as a loss, and you cannot come back to it.", "Diese gewertete Partie verlassen? Das zählt als Niederlage, und du kannst nicht zurückkehren.", "¿Abandonar esta partida puntuable? Cuenta como derrota y no podrás volver a ella.", "यह रेटेड मैच छोड़ें? यह हार गिनी जाएगी, और आप इसमें वापस नहीं आ सकेंगे।", "هل تغادر هذه المباراة المصنّفة؟ تُحتسب خسارة، ولن تستطيع العودة إليها.")
t("Leave this match? You cannot come back to it.", "Diese Partie verlassen? Du kannst nicht zurückkehren.", "¿Abandonar esta partida? No podrás volver a ella.", "यह मैच छोड़ें? आप इसमें वापस नहीं आ सकेंगे।", "هل تغادر هذه المباراة؟ لن تستطيع العودة إليها.")
t("Leave (counts as a loss)", "Verlassen (zählt als Niederlage)", "Abandonar (cuenta como derrota)", "मैच छोड़ें (हार गिनी जाएगी)", "مغادرة (تُحتسب خسارة)")
t("Leave the match", "Partie verlassen", "Abandonar la partida", "मैच छोड़ें", "مغادرة المباراة")
t("Pause the match? Every clock stops until you resume it.", "Partie pausieren? Alle Uhren stehen, bis du sie fortsetzt.", "¿Pausar la partida? Todos los relojes se detienen hasta que la reanudes.", "मैच रोकें? जब तक आप इसे फिर शुरू नहीं करते, सारी घड़ियाँ रुकी रहेंगी।", "هل توقف المباراة مؤقتًا؟ تتوقف كل الساعات حتى تستأنفها.")
t("Pause", "Pausieren", "Pausar", "रोकें", "إيقاف مؤقت", ctx="verb")
t("Resume", "Fortsetzen", "Reanudar", "फिर शुरू करें", "استئناف")
t("Your matches", "Deine Partien", "Tus partidas", "आपके मैच", "مبارياتك")
t("Live now", "Jetzt live", "En vivo ahora", "अभी लाइव", "مباشرة الآن")
t("Your turn in", "Du bist am Zug in", "Tu turno en", "आपकी बारी इतने मैचों में:", "دورك في", ctx="before a count of matches")
t("match", "Partie", "partida", "मैच", "مباراة", ctx="after a count of one")
t("matches", "Partien", "partidas", "मैच", "مباريات", ctx="after a count of several")
t("match", ["Partie", "Partien"], ["partida", "partidas", "partidas"], ["मैच", "मैच"], ["مباراة", "مباراة", "مباراتين", "مباريات", "مباراة", "مباراة"])
t("Waiting for others", "Warten auf andere", "Esperando a otros", "दूसरों का इंतज़ार", "بانتظار الآخرين")
t("You are in no match now.", "Du bist gerade in keiner Partie.", "No estás en ninguna partida ahora.", "आप अभी किसी मैच में नहीं हैं।", "لست في أي مباراة الآن.")
t('<a href="%(play_url)s">Start one</a>.', '<a href="%(play_url)s">Starte eine</a>.', '<a href="%(play_url)s">Empieza una</a>.', '<a href="%(play_url)s">एक शुरू करें</a>।', '<a href="%(play_url)s">ابدأ واحدة</a>.')
t("Notify me when this tab is hidden", "Benachrichtige mich, wenn dieser Tab verborgen ist", "Avísame cuando esta pestaña esté oculta", "यह टैब छिपा होने पर मुझे सूचित करें", "أعلمني حين يكون هذا التبويب مخفيًا")

t("Players", "Spieler", "Jugadores", "खिलाड़ी", "اللاعبون")
t("Rating (provisional)", "Wertung (vorläufig)", "Puntuación (provisional)", "रेटिंग (अस्थायी)", "التصنيف (مؤقت)")
t("Rating", "Wertung", "Puntuación", "रेटिंग", "التصنيف")
t("Place %(rank)s", "Platz %(rank)s", "Puesto %(rank)s", "स्थान %(rank)s", "المركز %(rank)s")
t("on holiday until %(date)s", "im Urlaub bis %(date)s", "de vacaciones hasta el %(date)s", "%(date)s तक छुट्टी पर", "في إجازة حتى %(date)s")
t("(to move)", "(am Zug)", "(su turno)", "(बारी है)", "(دوره)", ctx="seats list")
t("Dice: %(first)s and %(second)s", "Würfel: %(first)s und %(second)s", "Dados: %(first)s y %(second)s", "पासे: %(first)s और %(second)s", "النرد: %(first)s و%(second)s")
t("Last roll: %(die)s", "Letzter Wurf: %(die)s", "Última tirada: %(die)s", "पिछला पासे का अंक: %(die)s", "الرمية الأخيرة: %(die)s")
t("No roll yet", "Noch kein Wurf", "Todavía no hay tirada", "अभी तक पासा नहीं फेंका गया", "لا رمية بعد")
t("Red", "Rot", "Rojo", "लाल", "أحمر", ctx="seat colour")
t("Green", "Grün", "Verde", "हरा", "أخضر", ctx="seat colour")
t("Yellow", "Gelb", "Amarillo", "पीला", "أصفر", ctx="seat colour")
t("Blue", "Blau", "Azul", "नीला", "أزرق", ctx="seat colour")
t("Purple", "Lila", "Morado", "बैंगनी", "بنفسجي", ctx="seat colour")

T[(None, "%(move)s is not a legal move now.")]["ar"] = "%(move)s ليست نقلة مسموحة الآن."


def _ar_forms(one_word, many_word, template):
    return [template % w for w in (one_word, one_word, one_word, many_word, one_word, one_word)]
T[(None, "You are in %(playing)s turn-based match; one player may be in at most %(limit)s at once. Finish or leave one of them (Your matches) to start another.")]["ar"] = _ar_forms(
    "مباراة", "مباريات", "أنت في %%(playing)s %s بالأدوار؛ يمكن للاعب أن يكون في %%(limit)s على الأكثر في الوقت نفسه. أنهِ إحداها أو غادرها (مبارياتك) لتبدأ أخرى.")
T[(None, "%(name)s is in %(playing)s turn-based match; one player may be in at most %(limit)s at once. The match can start when one of them ends.")]["ar"] = _ar_forms(
    "مباراة", "مباريات", "%%(name)s في %%(playing)s %s بالأدوار؛ يمكن للاعب أن يكون في %%(limit)s على الأكثر في الوقت نفسه. يمكن أن تبدأ المباراة عندما تنتهي إحداها.")
T[(None, "You are playing %(playing)s match against computers already, the most one player may play at once (%(limit)s). Finish or leave one of them (Your matches) to start another.")]["ar"] = _ar_forms(
    "مباراة", "مباريات", "أنت تلعب بالفعل %%(playing)s %s ضد لاعبي الحاسوب، وهو أقصى ما يمكن للاعب أن يلعبه في الوقت نفسه (%%(limit)s). أنهِ إحداها أو غادرها (مبارياتك) لتبدأ أخرى.")


if __name__ == "__main__":
    names = {"de": "German", "es": "Spanish", "hi": "Hindi", "ar": "Arabic"}
    for lang in ("de", "es", "hi", "ar"):
        path = f"locale/{lang}/LC_MESSAGES/django.po"
        po = polib.pofile(path, wrapwidth=0)
        po.metadata_is_fuzzy = []
        po.metadata["Language"] = lang
        filled = 0
        for e in po:
            tr = T.get((e.msgctxt, e.msgid))
            if tr is None:
                continue
            value = tr[lang]
            if e.msgid_plural:
                n = {"de": 2, "hi": 2, "es": 3, "ar": 6}[lang]
                forms = value if isinstance(value, list) else [value] * n
                assert len(forms) == n, (lang, e.msgid, len(forms), n)
                e.msgstr_plural = {i: f for i, f in enumerate(forms)}
            else:
                assert isinstance(value, str), (lang, e.msgid)
                e.msgstr = value
            if "fuzzy" in e.flags:
                e.flags.remove("fuzzy")
            filled += 1
        po.save(path)
        print(lang, filled, "of", len(T))
