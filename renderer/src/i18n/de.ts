// German UI text. Typed against the English keys, so a missing or extra key
// fails the type check.
import type { Dictionary } from './en';

/** The German dictionary. */
export const de: Dictionary = {
  'app.title': 'Countersign',
  'app.idle': 'Keine Fragen warten.',
  'app.idleHint': 'Wenn ein MCP-Server Sie etwas fragt, erscheint es hier. Das KI-Modell sieht diese Fragen nie.',
  'app.hostError': 'Countersign erreicht seinen Host nicht: {error}',
  'app.noToken':
    'Diese Seite wurde ohne ihren Zugangsschlüssel geöffnet und kann daher nicht mit Countersign sprechen.',
  'app.noTokenWhatToDo':
    'Öffnen Sie den Link, den „countersign web“ in seinem Terminal ausgegeben hat (er endet auf #token=…). ' +
    'Ist das Terminal geschlossen, starten Sie countersign web neu: es gibt einen neuen Link aus.',
  'app.connection.reconnecting': 'Verbindung zu Countersign verloren; neuer Versuch läuft … Fragen warten so lange.',
  'app.connection.failed':
    'Die Verbindung zu Countersign ist weg. Öffnen Sie den Link, den `countersign web` ausgegeben hat, ' +
    'erneut (ein neu gestartetes Countersign gibt einen neuen aus).',

  'app.alert.socket-missing':
    'Ein anderes Programm hat den Freigabe-Socket von Countersign entfernt; Agenten erreichten diese App nicht.',
  'app.alert.socket-replaced':
    'Ein anderes Programm hat den Freigabe-Socket von Countersign übernommen. ' +
    'Fragen von Agenten gehen womöglich dorthin statt in diese App. Beenden Sie es und starten Sie Countersign neu.',
  'app.alert.socket-restored': 'Der Freigabe-Socket von Countersign ist wieder gebunden; Agenten erreichen diese App.',

  'dialog.title.form': '{server} bittet um Angaben',
  'dialog.title.confirm': '{server} bittet um Ihre Bestätigung',
  'dialog.title.url': '{server} bittet Sie, einen Link zu öffnen',
  'dialog.close': 'Abbrechen: schließen, ohne zu antworten',
  'dialog.escHint': 'Esc schließt, ohne zu antworten.',
  'dialog.cancelTask': 'Aufgabe abbrechen',
  'dialog.cancelTaskHint':
    'Bricht die ganze Aufgabe auf ihrem Server ab (tasks/cancel). ' +
    'Ablehnen oder Schließen beantworten nur diese Frage.',
  'dialog.messageLabel': 'Nachricht des Servers',
  'dialog.noMessage': 'Der Server hat keine Nachricht geschickt.',
  'dialog.messageMore': 'Es folgt mehr: ganze Nachricht zeigen ({count} Zeichen)',
  'dialog.messageLess': 'Weniger von der Nachricht zeigen',
  'dialog.sending': 'Wird gesendet …',
  'dialog.sendFailed': 'Die Antwort konnte nicht gesendet werden: {error}',

  'origin.tools/call': 'Werkzeug',
  'origin.prompts/get': 'Prompt',
  'origin.resources/read': 'Ressource',
  'origin.noCall': 'Keinem bekannten Aufruf zugeordnet',
  'origin.round': 'Runde {round}',
  'origin.position': 'Frage {index} von {count} von {server}, Runde {round}',
  'origin.toCome': 'Es folgen: {titles}. Die Antworten werden nach der letzten gemeinsam gesendet.',
  'origin.lastRound':
    'Dies ist die letzte Runde, die das Rundenlimit erlaubt: Fragt der Server danach erneut, wird der Aufruf beendet.',
  'origin.timeLimit': 'Schließt sich nach {minutes} Min. ohne Antwort (Einstellungen → Zeitlimit für Fragen).',
  'origin.agent': 'Für den Agenten {agent}',
  'origin.reportedByGateway': 'Server, Aufruf und Agent laut Gateway',
  'origin.destructive': 'Der Server kennzeichnet dieses Tool als destruktiv: Es kann etwas löschen oder ändern.',
  'origin.readOnly': 'Der Server kennzeichnet dieses Tool als nur lesend: Es sollte nichts ändern.',
  'origin.app': 'Gefragt von der App {resource} des Servers, nicht vom Server. An den Server geht nichts zurück.',
  'origin.task': 'Aufgabe {id} von {name}, läuft seit {age}',
  'age.underMinute': 'weniger als einer Minute',
  'age.minutes': '{minutes} Min.',
  'age.hours': '{hours} Std. {minutes} Min.',
  'age.days': '{days} T. {hours} Std.',
  'origin.arguments': 'Argumente',

  'queue.waiting.one': '1 weitere Frage wartet',
  'queue.waiting.other': '{count} weitere Fragen warten',
  'queue.waitingShort.one': '1 weitere wartet',
  'queue.waitingShort.other': '{count} weitere warten',

  'action.accept': 'Zustimmen',
  'action.decline': 'Ablehnen',
  'action.submit': 'Absenden',
  'action.cancel': 'Abbrechen',
  'action.back': 'Zurück',
  'action.next': 'Weiter',
  'action.sendAnswers': '{count} Antworten senden',
  'action.acceptNext': 'Annehmen, weiter',
  'action.acceptSend': 'Annehmen und {count} Antworten senden',
  'action.doneNext': 'Erledigt, weiter',
  'action.doneSend': 'Erledigt, {count} Antworten senden',
  'dialog.escHintRound': 'Esc bricht die ganze Runde ab: keine ihrer {count} Antworten wird gesendet.',
  'action.open': 'Im Browser öffnen',
  'action.done': 'Erledigt, weiter',
  'action.copy': 'Link kopieren',
  'action.dismiss': 'Ausblenden',

  'form.requiredLegend': 'Mit * markierte Felder sind Pflichtfelder.',
  'form.required': 'Pflichtfeld',
  'form.choose': 'Bitte wählen …',
  'form.none': 'Keine Auswahl',
  'form.invalid.one': 'Bitte korrigieren Sie das markierte Feld.',
  'form.invalid.other': 'Bitte korrigieren Sie die {count} markierten Felder.',
  'form.secretBanner':
    'Dieses Formular fragt nach etwas, das wie ein Geheimnis aussieht ({fields}). ' +
    'Server dürfen in Formularen nicht nach Passwörtern, Schlüsseln, Tokens oder Zahlungsdaten fragen. ' +
    'Ablehnen ist die sichere Wahl.',
  'form.secretField': 'Sieht aus wie ein Geheimnis. Besser ablehnen.',
  'form.chars': '{count} von höchstens {max} Zeichen',
  'form.charsMin': 'Mindestens {min} Zeichen',
  'form.charsMinOne': 'Mindestens 1 Zeichen',
  'form.charsOne': '{count} von höchstens 1 Zeichen',
  'form.numRange': 'Von {min} bis {max}',
  'form.numMin': 'Mindestens {min}',
  'form.numMax': 'Höchstens {max}',
  'form.wholeNumber': 'Ganze Zahl',
  'form.pickRange': 'Wählen Sie {min} bis {max}',
  'form.pickMin': 'Wählen Sie mindestens {min}',
  'form.pickMax': 'Wählen Sie höchstens {max}',
  'form.dateTimeHint': 'Ihre Ortszeit. Gesendet als {value}.',
  'form.dateFormat': 'Format: TT.MM.JJJJ',
  'form.dateTimeFormat': 'Format: TT.MM.JJJJ HH:MM',
  'form.unsupported': 'Dieses Feld kann nicht angezeigt werden.',

  'error.required': 'Dieses Feld ist erforderlich.',
  'error.minLength': 'Geben Sie mindestens {limit} Zeichen ein.',
  'error.maxLength': 'Geben Sie höchstens {limit} Zeichen ein.',
  'error.minLengthOne': 'Geben Sie mindestens 1 Zeichen ein.',
  'error.maxLengthOne': 'Geben Sie höchstens 1 Zeichen ein.',
  'error.minimum': 'Geben Sie eine Zahl ab {limit} ein.',
  'error.maximum': 'Geben Sie eine Zahl bis {limit} ein.',
  'error.type.integer': 'Geben Sie eine ganze Zahl ein.',
  'error.type.number': 'Geben Sie eine Zahl ein.',
  'error.type.other': 'Dieser Wert hat den falschen Typ.',
  'error.format.email': 'Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.',
  'error.format.uri': 'Geben Sie eine vollständige Adresse ein, etwa https://example.com/.',
  'error.format.date': 'Geben Sie ein Datum ein.',
  'error.format.date-time': 'Geben Sie ein Datum und eine Uhrzeit ein.',
  'error.choice': 'Wählen Sie eine der Möglichkeiten.',
  'error.minItems': 'Wählen Sie mindestens {limit}.',
  'error.maxItems': 'Wählen Sie höchstens {limit}.',
  'error.uniqueItems': 'Wählen Sie jede Möglichkeit nur einmal.',
  'error.other': 'Dieser Wert ist ungültig.',

  'dialog.title.signIn': '{server} bittet Sie, sich anzumelden',
  'signIn.forCall': 'Für',
  'signIn.fromServers': 'Sie haben diese Anmeldung selbst gestartet; kein Aufruf wartet darauf',
  'signIn.fromGateway': 'Ein über das Gateway verbundener Agent braucht diesen Server; noch läuft kein Tool-Aufruf',
  'signIn.stepUp': 'Der Server verlangt mehr Berechtigungen, als Sie bisher erteilt haben.',
  'signIn.site': 'Anmeldeseite des Autorisierungsservers',
  'signIn.issuer': 'Aussteller',
  'signIn.scopes': 'Verlangte Berechtigungen',
  'signIn.noScopes': 'Keine genannt: der Server entscheidet.',
  'signIn.consent':
    'Im Browser öffnen zeigt diese Anmeldeseite in Ihrem gewohnten Browser. ' +
    'Die Anmeldung kommt nur auf diesem Computer zu Countersign zurück; ' +
    'das KI-Modell sieht weder den Link noch einen Code oder ein Token.',
  'signIn.blocked': 'Diese Anmeldeseite kann nicht geöffnet werden. Sie können nur abbrechen.',
  'signIn.waiting':
    'Die Anmeldeseite ist in Ihrem Browser geöffnet. Melden Sie sich dort an; dieser Dialog schließt sich, ' +
    'sobald die Anmeldung zurückkommt.',
  'signIn.openFailed': 'Die Anmeldeseite wurde nicht geöffnet: {reason}',
  'servers.signIn.needed': 'Anmeldung nötig',
  'servers.signIn.neededHint': 'Dieser Server verlangt eine Anmeldung, bevor er antwortet.',
  'servers.signIn.signedIn': 'Angemeldet',
  'servers.signIn.issuer': 'Aussteller: {issuer}',
  'servers.signIn.scopes': 'Berechtigungen: {scopes}',
  'servers.signIn.noScopes': 'Berechtigungen: keine genannt',
  'servers.signIn.expires': 'Token läuft ab: {time}',
  'servers.signIn.renewable': 'erneuert sich selbst',
  'servers.signIn.storage': 'Aufbewahrt: {storage}',
  'servers.signIn.notEncrypted':
    'Kein Schlüsselbund verfügbar: Die Token werden unverschlüsselt in einer Datei aufbewahrt, ' +
    'die nur Ihr Benutzer lesen kann.',
  'servers.signIn.details': 'Details',
  'servers.signIn.boundToKey':
    'An einen Schlüssel auf diesem Computer gebunden (DPoP): das Token allein nützt niemandem',
  'servers.signIn.failed': 'Anmeldung fehlgeschlagen: {error}',
  'servers.signIn.more': 'Weitere Berechtigungen (durch Leerzeichen getrennt)',
  'action.signIn': 'Anmelden',
  'action.signOut': 'Abmelden',
  'action.signInMore': 'Mit mehr Berechtigungen neu anmelden',
  'history.signIn.asked': 'Anmeldung erfragt',
  'history.signIn.opened': 'Anmeldeseite geöffnet',
  'history.signIn.completed': 'Angemeldet',
  'history.signIn.cancelled': 'Anmeldung abgebrochen',
  'history.signIn.failed': 'Anmeldung fehlgeschlagen',
  'history.signIn.signed-out': 'Abgemeldet',

  'url.site': 'Website',
  'url.ascii': 'Auch geschrieben als',
  'url.fullLink': 'Vollständiger Link',
  'url.nothingLoaded': 'Noch wurde nichts geöffnet oder geladen.',
  'url.consent':
    '„Im Browser öffnen“ bringt Sie in Ihrem gewohnten Browser zu dieser Adresse. ' +
    'Weder Countersign noch das KI-Modell sehen, was Sie dort tun.',
  'url.consentLookalike':
    '„Trotzdem öffnen“ bringt Sie in Ihrem gewohnten Browser zu dieser Adresse. ' +
    'Weder Countersign noch das KI-Modell sehen, was Sie dort tun.',
  'url.blocked': 'Dieser Link kann nicht geöffnet werden. Sie können nur ablehnen oder abbrechen.',
  'url.blockedCopy':
    'Dieser Link kann von hier aus nicht geöffnet werden. Sie können ihn kopieren, ablehnen oder abbrechen.',
  'url.openFailed': 'Der Link wurde nicht geöffnet: {reason}',
  'action.openedMyself': 'Ich habe ihn selbst geöffnet',
  'url.waiting':
    'Der Link ist in Ihrem Browser geöffnet. Wenn Sie dort fertig sind, machen Sie hier weiter, ' +
    'damit der Server das Ergebnis prüfen kann.',
  'passkey.title': 'Mit Ihrem Passkey bestätigen',
  'passkey.why': 'Ihr Passkey wird gebraucht, weil: {reason}.',
  'passkey.open': 'Bestätigungsseite öffnen',
  'passkey.consent':
    'Die Seite öffnet sich auf diesem Computer und zeigt, was Ihr Passkey unterschreibt: den Server, das Werkzeug ' +
    'und Fingerabdrücke der Argumente, der Frage und Ihrer Antwort. Gesendet wird erst, wenn Ihr Passkey es dort ' +
    'bestätigt hat.',
  'passkey.waiting':
    'Bestätigen Sie auf der geöffneten Seite. Dieser Dialog schließt sich von selbst, sobald Ihr Passkey bestätigt ' +
    'hat; Abbrechen sendet einen Abbruch.',
  'url.copied': 'Link kopiert.',
  'url.selected': 'Der Link ist markiert: Mit Strg+C (⌘C auf dem Mac) kopieren Sie ihn.',
  'url.warningsLabel': 'Warnungen',

  'warn.punycode':
    'Der Name der Website ist internationalisiert (Punycode). ' +
    'Buchstaben aus anderen Alphabeten können einen bekannten Namen nachahmen: Prüfen Sie ihn genau.',
  'warn.mixed-script':
    'Der Name der Website mischt Buchstaben verschiedener Alphabete, ein üblicher Trick, ' +
    'um eine bekannte Website nachzuahmen.',
  'warn.http-not-loopback':
    'Der Link ist nicht verschlüsselt (http). Andere im Netzwerk könnten mitlesen oder verändern, was Sie senden.',
  'warn.credentials':
    'Der Link enthält einen Benutzernamen oder ein Passwort. Das kann verschleiern, wohin er wirklich führt.',
  'warn.raw-ip': 'Der Link führt zu einer nackten IP-Adresse statt zu einem Namen.',
  'warn.too-long': 'Der Link ist sehr lang. Lesen Sie ihn vollständig: Das Entscheidende kann darin versteckt sein.',
  'warn.blocked-scheme': 'Links dieser Art ({scheme}) werden nie geöffnet.',
  'warn.unparseable': 'Der Link ist fehlerhaft und kann nicht geöffnet werden.',
  'warn.confusable':
    'Der Name der Website ist mit Zeichen geschrieben, die gewöhnlichen Buchstaben nur ähneln: ' +
    'Er ahmt einen anderen Namen nach. Oben steht, wie er wirklich geschrieben ist.',
  'url.looksLike': 'Sieht aus wie',
  'url.lookalikeHeadline': 'Echte Adresse (so, wie Ihr Browser sie lesen muss)',
  'url.lookalikeStop':
    'Diese Adresse ahmt eine andere nach. Öffnen Sie sie nur, wenn Sie genau wissen, ' +
    'warum dieser Server Sie dorthin schickt.',
  'action.openLookalike': 'Trotzdem öffnen…',
  'action.openLookalikeConfirm': 'Trotzdem öffnen',

  'note.call-cancelled': 'Die Frage von {server} wurde zurückgezogen: Ihr Aufruf wurde abgebrochen.',
  'note.call-ended':
    'Die Frage von {server} wurde zurückgezogen: Ihr Aufruf ist beendet, es wird keine Antwort gesendet.',
  'note.server-gone': 'Die Frage von {server} wurde zurückgezogen: Der Server ist nicht mehr da.',
  'note.timeout': 'Die Frage von {server} ist abgelaufen.',
  'note.answered': 'Die Frage von {server} wurde an anderer Stelle beantwortet.',

  'settings.title': 'Einstellungen',
  'settings.language': 'Sprache',
  'settings.language.system': 'System ({language})',
  'settings.language.en': 'English',
  'settings.language.de': 'Deutsch',
  'settings.theme': 'Darstellung',
  'settings.theme.system': 'System',
  'settings.theme.light': 'Hell',
  'settings.theme.dark': 'Dunkel',

  'nav.label': 'Hauptnavigation',
  'nav.servers': 'Server',
  'nav.tools': 'Werkzeuge',
  'nav.tasks': 'Aufgaben',
  'nav.history': 'Verlauf',
  'nav.settings': 'Einstellungen',
  'nav.waiting.one': 'Frage wartet auf Sie',
  'nav.waiting.other': 'Fragen warten auf Sie',

  'form.optional': '(optional)',

  'servers.title': 'Server',
  'servers.lede':
    'Die MCP-Server, mit denen Countersign sich verbindet. Was sie fragen, kommt zu Ihnen, nie zum KI-Modell.',
  'servers.add': 'Server hinzufügen',
  'servers.listLabel': 'Eingerichtete Server',
  'servers.empty': 'Noch keine Server.',
  'servers.emptyHint':
    'Fügen Sie einen hinzu oder importieren Sie die Server, die Sie schon in Claude Desktop, ' +
    'Cursor oder VS Code nutzen.',
  'servers.loadError': 'Die Server konnten nicht geladen werden: {error}',
  'servers.fileProblem':
    'Ihre Änderung an servers.json wurde nicht geladen; die Liste unten ist die letzte gültige: {error}',
  'servers.status.idle': 'Nicht verbunden',
  'servers.status.connecting': 'Verbindet …',
  'servers.status.connected': 'Verbunden',
  'servers.status.error': 'Nicht erreichbar',
  'servers.era.modern': 'Modern',
  'servers.era.legacy': 'Alt',
  'servers.errorReason': 'Grund:',
  'servers.transport.stdio': 'Ein Programm auf diesem Computer (stdio)',
  'servers.transport.http': 'Ein Server im Netzwerk (HTTP)',
  'servers.transport.stdioShort': 'stdio',
  'servers.transport.httpShort': 'HTTP',
  'servers.openTools': 'Werkzeuge',
  'servers.reconnect': 'Neu verbinden',
  'servers.reconnecting': 'Verbindet neu …',
  'servers.edit': 'Bearbeiten',
  'servers.remove': 'Entfernen',
  'servers.keep': 'Behalten',
  'servers.removeConfirm': '{name} aus Ihren Servern entfernen?',
  'servers.mutedPill': 'Fragt nicht',
  'servers.mute': 'In dieser Sitzung nicht mehr fragen',
  'servers.muteHint':
    'Seine Fragen werden dann ohne Anzeige abgebrochen (und weiter im Verlauf festgehalten), ' +
    'bis Sie dies ausschalten oder Countersign neu startet.',
  'servers.muteHintOnce':
    '„In dieser Sitzung nicht mehr fragen“ bei einem Server: Seine Fragen werden dann ohne Anzeige abgebrochen ' +
    '(und trotzdem im Verlauf festgehalten), bis Sie es ausschalten oder Countersign neu startet.',
  'servers.protocol': 'MCP {version}',
  'servers.muteOn':
    'Eingeschaltet: Fragen dieses Servers werden ohne Anzeige abgebrochen (und weiter im Verlauf festgehalten). ' +
    'Schalten Sie dies aus, um wieder gefragt zu werden.',
  'servers.form.addTitle': 'Server hinzufügen',
  'servers.form.editTitle': '{name} bearbeiten',
  'servers.form.add': 'Server hinzufügen',
  'servers.form.save': 'Änderungen speichern',
  'servers.form.saving': 'Wird gespeichert …',
  'servers.field.name': 'Name',
  'servers.field.transport': 'Wie Countersign ihn erreicht',
  'servers.field.command': 'Befehl',
  'servers.field.args': 'Argumente',
  'servers.field.env': 'Umgebungsvariablen',
  'servers.field.cwd': 'Arbeitsordner',
  'servers.field.url': 'URL',
  'servers.field.headers': 'HTTP-Header',
  'servers.hint.name': 'Steht in jeder Frage dieses Servers und im Verlauf.',
  'servers.hint.nameFixed':
    'Der Name lässt sich nicht ändern; entfernen Sie den Server und fügen Sie ihn neu hinzu, um ihn umzubenennen.',
  'servers.hint.command': 'Das Programm, das gestartet wird, etwa npx, uvx, node oder ein vollständiger Pfad.',
  'servers.hint.args': 'Ein Argument pro Zeile.',
  'servers.hint.env': 'Ein NAME=Wert pro Zeile.',
  'servers.hint.url': 'Der Streamable-HTTP-Endpunkt des Servers.',
  'servers.hint.headers': 'Ein Name: Wert pro Zeile.',
  'servers.error.nameRequired': 'Geben Sie dem Server einen Namen.',
  'servers.error.commandRequired': 'Geben Sie das Programm an, das gestartet wird.',
  'servers.error.urlRequired': 'Geben Sie die URL des Servers an.',
  'servers.error.envLine': 'Zeile {line} hat nicht die Form NAME=Wert.',
  'servers.error.headerLine': 'Zeile {line} hat nicht die Form Name: Wert.',
  'servers.import.button': 'Aus Datei importieren …',
  'servers.import.reading': 'Wird importiert …',
  'servers.import.tooLarge': 'Die Datei ist zu groß für eine Konfigurationsdatei.',
  'servers.import.reportTitle': 'Import aus {file}',
  'servers.import.none': 'Es wurden keine Server hinzugefügt.',
  'servers.import.imported.one': '1 Server hinzugefügt: {names}.',
  'servers.import.imported.other': '{count} Server hinzugefügt: {names}.',
  'servers.import.skipped': 'Übersprungen ({count}):',
  'servers.import.review.title': 'Server aus {file} hinzufügen?',
  'servers.import.review.lede':
    'Nichts wird hinzugefügt und nichts läuft, bevor Sie „Hinzufügen“ wählen. Prüfen Sie, was jeder Server ' +
    'startet; entfernen Sie das Häkchen bei denen, die Sie nicht wollen.',
  'servers.import.review.listLabel': 'Server in der Datei',
  'servers.import.review.runs': 'Startet',
  'servers.import.review.connects': 'Verbindet mit',
  'servers.import.review.env': 'Umgebungsvariablen (Werte verborgen): {names}',
  'servers.import.review.headers': 'Header (Werte verborgen): {names}',
  'servers.import.review.needs': 'Braucht noch einen Wert, bevor er starten kann:',
  'servers.import.review.inputsTitle': 'Werte, nach denen die Datei fragt',
  'servers.import.review.inputHint':
    'Füllt ${input:{id}}. Bleibt es leer, wird der Server hinzugefügt, startet aber erst mit einem Wert.',
  'servers.import.review.secretHint':
    'Ein Geheimnis für ${input:{id}}: verborgen beim Server gespeichert und nie wieder angezeigt. ' +
    'Bleibt es leer, startet der Server erst mit einem Wert.',
  'servers.import.review.skipped': 'Nicht importiert ({count}):',
  'servers.import.review.escHint': 'Esc bricht ab: nichts wird hinzugefügt.',
  'servers.import.review.adding': 'Wird hinzugefügt …',
  'servers.import.review.failed': 'Die Server konnten nicht hinzugefügt werden: {error}',
  'servers.import.review.add.one': '1 Server hinzufügen',
  'servers.import.review.add.other': '{count} Server hinzufügen',
  'servers.status.needsValue': 'Braucht einen Wert',
  'servers.needsValue': 'Er startet erst, wenn diese einen Wert haben:',
  'servers.needsValueHint':
    'Setzen Sie die Umgebungsvariable oder bearbeiten Sie den Server und tragen Sie den Wert ein; ' +
    'dann „Neu verbinden“.',

  'tools.title': 'Werkzeuge',
  'tools.lede':
    'Was ein Server anbietet, und ein Ort, seine Werkzeuge selbst aufzurufen. ' +
    'Fragen eines Aufrufs kommen wie gewohnt zu Ihnen.',
  'tools.server': 'Server',
  'tools.refresh': 'Aktualisieren',
  'tools.loading': '{server} wird gefragt, was er anbietet …',
  'tools.loadError': 'Was {server} anbietet, ließ sich nicht abfragen: {error}',
  'tools.catalogLabel': 'Was {server} anbietet',
  'tools.tab.tools': 'Werkzeuge',
  'tools.tab.prompts': 'Prompts',
  'tools.tab.resources': 'Ressourcen',
  'tools.none': 'Dieser Server bietet keine Werkzeuge an.',
  'tools.noPrompts': 'Dieser Server bietet keine Prompts an.',
  'tools.noResources': 'Dieser Server bietet keine Ressourcen an.',
  'tools.promptsFailed': 'Der Server bietet Prompts an, konnte sie aber nicht auflisten: {error}',
  'tools.resourcesFailed': 'Der Server bietet Ressourcen an, konnte sie aber nicht auflisten: {error}',
  'tools.noServers': 'Es gibt noch keinen Server, den man fragen könnte.',
  'tools.goToServers': 'Server hinzufügen',
  'tools.pick': 'Wählen Sie ein Werkzeug, um es aufzurufen.',
  'tools.pickHint': 'Seine Argumente erscheinen als Formular, sein Ergebnis hier, wenn es fertig ist.',
  'tools.promptArgs': 'Argumente:',
  'tools.call': '{tool} aufrufen',
  'tools.starting': 'Startet …',
  'tools.noArgs': 'Dieses Werkzeug hat keine Argumente.',
  'tools.json.label': 'Argumente (JSON)',
  'tools.json.edit': 'Als JSON bearbeiten',
  'tools.json.useForm': 'Formular verwenden',
  'tools.json.why':
    'Die Eingabe dieses Werkzeugs lässt sich nicht als Formular darstellen ({reason}): ' +
    'Geben Sie seine Argumente als JSON ein.',
  'tools.json.syntax': 'Das ist kein gültiges JSON: {detail}',
  'tools.json.notObject': 'Die Argumente müssen ein JSON-Objekt sein, etwa {"name": "Wert"}.',
  'tools.calls': 'Aufrufe',
  'tools.clear': 'Beendete entfernen',
  'tools.state.starting': 'Startet',
  'tools.state.running': 'Läuft',
  'tools.state.complete': 'Fertig',
  'tools.state.tool-error': 'Werkzeugfehler',
  'tools.state.error': 'Fehlgeschlagen',
  'tools.state.cancelled': 'Abgebrochen',
  'outcome.declined': 'Abgelehnt',
  'outcome.questionCancelled': 'Frage abgebrochen',
  'outcome.unanswered': 'Nicht beantwortet',
  'outcome.note.human.decline': 'Sie haben die Frage abgelehnt; der Server hat danach mit der Antwort unten geendet.',
  'outcome.note.human.cancel': 'Sie haben die Frage abgebrochen; der Server hat danach mit der Antwort unten geendet.',
  'outcome.note.script.decline':
    'Ein Skript hat die Frage abgelehnt; der Server hat danach mit der Antwort unten geendet.',
  'outcome.note.script.cancel':
    'Ein Skript hat die Frage abgebrochen; der Server hat danach mit der Antwort unten geendet.',
  'outcome.note.rule':
    'Ihre Regel für diesen Server hat die Frage abgelehnt; der Server hat danach mit der Antwort unten geendet.',
  'outcome.note.unanswered':
    'Niemand hat die Frage beantwortet: {reason}. Der Server hat danach mit der Antwort unten geendet.',
  'outcome.reason.timeout': 'Countersign hat sie nach Ablauf ihrer Zeitgrenze beendet',
  'outcome.reason.call-cancelled': 'sie wurde zurückgezogen, bevor jemand antwortete',
  'outcome.reason.policy': 'eine Regel von Countersign hat sie verweigert',
  'outcome.reason.app-closing': 'Countersign hat sie beim Beenden der App beendet',
  'outcome.reason.input-closed': 'Countersign hat sie beendet, als die Eingabe im Terminal endete',
  'tools.runningHint': 'Läuft. Hat der Server eine Frage, öffnet sie sich als Dialog.',
  'tools.cancelling': 'Wird abgebrochen …',
  'tools.cancel': 'Aufruf abbrechen',
  'appQuestion.badge': 'Von einer MCP-App gezeichnet (experimentell)',
  'appQuestion.note':
    'Die App {uri} des Servers zeichnet dieses Formular, in einer Sandbox. Sie kann nur Werte vorschlagen: ' +
    'Countersign prüft sie gegen das Formular der Frage und zeigt sie unten, und nur Ihr Zustimmen sendet sie.',
  'appQuestion.frameTitle': 'Formular, gezeichnet von der App von {server}',
  'appQuestion.loading': 'Die App des Servers wird geladen…',
  'appQuestion.loadFailed': 'die App konnte nicht geladen werden ({error})',
  'appQuestion.waiting': 'Zustimmen wartet, bis die App Werte vorschlägt, die zum Formular passen.',
  'appQuestion.proposalTitle': 'Was Zustimmen sendet (von der App vorgeschlagen, von Countersign geprüft)',
  'appQuestion.none': 'Noch nichts: Füllen Sie das Formular oben aus.',
  'appQuestion.suggests.decline':
    'Die App schlägt Ablehnen vor. Nichts wurde gesendet: Wählen Sie unten Ablehnen, wenn Sie zustimmen, ' +
    'oder ändern Sie das Formular oben.',
  'appQuestion.suggests.cancel':
    'Die App schlägt Abbrechen vor. Nichts wurde gesendet: Wählen Sie unten Abbrechen, wenn Sie zustimmen, ' +
    'oder ändern Sie das Formular oben.',
  'appQuestion.fallback':
    'Die App des Servers konnte dieses Formular nicht zeichnen, Countersign zeigt sein eigenes: {reason}.',
  'settings.experimental': 'Experimentell',
  'settings.appQuestions': 'Die App eines Servers seine Fragen zeichnen lassen (experimentell)',
  'settings.appQuestionsHint':
    'SEP-3118, ein Entwurf. Die App zeichnet das Formular in Countersigns Dialog und schlägt nur Werte vor; ' +
    'Countersign prüft sie, und seine eigenen Schaltflächen antworten. ' +
    'Aus: Countersign zeichnet jedes Formular selbst.',
  'apps.badge': 'MCP-App',
  'apps.label': 'App von {server}',
  'apps.frameTitle': 'App zu {tool} von {server}',
  'apps.note':
    'Vom Server gezeichnet, in einer Sandbox. Ihre Tool-Aufrufe laufen wie Ihre durch Countersign, ' +
    'ihre Fragen kommen als Dialoge. Countersign hat kein Modell: Nachrichten und Kontext, die die App ' +
    'für ein Modell schickt, stehen unten und werden verworfen. Ein Link, den sie öffnen will, kommt als ' +
    'Dialog von Countersign und öffnet sich nur, wenn Sie ihn dort öffnen.',
  'apps.failed': 'Die App konnte nicht gezeigt werden: {error}',
  'apps.closed': 'Countersign hat diese App geschlossen: Sie hat zu viel gesendet.',
  'apps.notice.message': 'Nachricht für ein Modell (nicht gesendet):',
  'apps.notice.model-context': 'Kontext für ein Modell (nicht gesendet):',
  'apps.notice.link-opened': 'Link, den die App öffnen will (von Ihnen geöffnet):',
  'apps.notice.link-refused': 'Link, den die App öffnen will (nicht geöffnet):',
  'apps.notice.closed': 'Geschlossen:',
  'tools.cancelled': 'Der Aufruf wurde abgebrochen.',
  'tools.failed': 'Der Aufruf ist fehlgeschlagen: {error}',
  'tools.toolError': 'Das Werkzeug meldet einen Fehler:',
  'tools.resultExtra': 'Metadaten:',
  'tools.allArguments': 'Alle Argumente',
  'servers.import.title':
    'Die Konfiguration eines anderen Agenten: Claude Desktop, Claude Code, Cursor, VS Code (mcp.json), ' +
    'Codex (config.toml) oder Goose (config.yaml)',
  'tools.emptyResult': 'Das Werkzeug hat keinen Inhalt zurückgegeben.',

  'tasks.title': 'Aufgaben',
  'tasks.lede':
    'Lang laufende Werkzeugaufrufe. Ihre Fragen erreichen Sie als Dialoge. Abbrechen bittet den Server aufzuhören; ' +
    'wann, entscheidet er.',
  'tasks.empty': 'Noch keine Aufgaben.',
  'tasks.emptyHint':
    'Ein Werkzeug, das Minuten läuft, antwortet als Aufgabe; ' +
    'sie erscheint hier, solange sie läuft und nachdem sie endet.',
  'tasks.loadFailed': 'Die Aufgaben konnten nicht geladen werden: {error}',
  'tasks.running': 'Laufend',
  'tasks.finished': 'Beendet',
  'tasks.col.server': 'Server',
  'tasks.col.tool': 'Werkzeug',
  'tasks.col.status': 'Status',
  'tasks.col.message': 'Statusmeldung',
  'tasks.col.age': 'Läuft seit',
  'tasks.col.actions': 'Aktionen',
  'tasks.status.working': 'Arbeitet',
  'tasks.status.input_required': 'Wartet auf Sie',
  'tasks.status.completed': 'Abgeschlossen',
  'tasks.status.failed': 'Fehlgeschlagen',
  'tasks.status.cancelled': 'Abgebrochen',
  'tasks.notFollowed': 'von dieser App nicht verfolgt',
  'tasks.cancel': 'Abbrechen',
  'tasks.cancelling': 'Wird abgebrochen …',
  'tasks.cancelLabel': 'Aufgabe {id} von {tool} abbrechen',
  'tasks.cancelFailed': 'Abbrechen fehlgeschlagen: {error}',
  'tasks.onServer': 'auf {server}',

  'history.title': 'Verlauf',
  'history.lede': 'Jede Frage eines Servers und was daraus wurde. Neueste zuerst.',
  'history.export.jsonl': 'Als JSON Lines exportieren',
  'history.export.csv': 'Als CSV exportieren',
  'history.exporting': 'Wird exportiert …',
  'settings.notifications.title': 'Benachrichtigungen in diesem Browser',
  'settings.notifications.default':
    'Der Browser meldet neue Fragen, während der Tab im Hintergrund ist ' +
    '(so viel, wie „Benachrichtigungen zeigen“ erlaubt).',
  'settings.notifications.granted': 'An: Eine Frage, die im Hintergrund eintrifft, zeigt eine Benachrichtigung.',
  'settings.notifications.denied':
    'In diesem Browser blockiert: Erlauben Sie Benachrichtigungen für diese Seite in den Website-Einstellungen.',
  'settings.notifications.allow': 'Benachrichtigungen erlauben',
  'history.chain.unchecked':
    'Jeder Eintrag ist über seinen Hash mit dem vorigen verkettet: Änderungen und Lücken fallen auf.',
  'history.chain.checking': 'Die Kette wird geprüft…',
  'history.chain.intact': 'Kette intakt: {count} Einträge geprüft.',
  'history.chain.broken': 'Kette unterbrochen nach {count} gültigen Einträgen, bei {where}: {detail}',
  'history.chain.failed': 'Die Kette konnte nicht geprüft werden: {error}',
  'history.chain.verify': 'Kette prüfen',
  'history.exportFailed': 'Der Export ist fehlgeschlagen: {error}',
  'history.loadError': 'Der Verlauf konnte nicht gelesen werden: {error}',
  'history.filters': 'Verlauf filtern',
  'history.filter.text': 'Suche',
  'history.filter.textPlaceholder': 'Nachricht, Werkzeug, Link, Antwort …',
  'history.filter.server': 'Server',
  'history.filter.allServers': 'Alle Server',
  'history.filter.outcome': 'Ergebnis',
  'history.filter.anyOutcome': 'Jedes Ergebnis',
  'history.filter.mode': 'Art',
  'history.filter.anyMode': 'Formulare und Links',
  'history.filter.everything': 'Alles',
  'history.filter.from': 'Von',
  'history.filter.to': 'Bis',
  'history.filter.clear': 'Filter zurücksetzen',
  'history.loading': 'Wird geladen …',
  'history.count.one': '1 Eintrag',
  'history.count.other': '{count} Einträge',
  'history.count.atLeast': '{count}+ Einträge (weitere laden beim Blättern)',
  'history.listLabel': 'Verlaufseinträge, neueste zuerst',
  'history.loadingRow': 'Wird geladen …',
  'history.empty': 'Hier ist nichts.',
  'history.emptyHint': 'Fragen erscheinen hier, sobald ein Server eine gestellt hat (oder keine passt zu den Filtern).',
  'history.outcome.accept': 'Zugestimmt',
  'history.outcome.decline': 'Abgelehnt',
  'history.outcome.cancel': 'Abgebrochen',
  'history.outcome.none': 'Unbeantwortet',
  'history.kind.fault': 'Protokollfehler',
  'history.kind.note': 'Hinweis',
  'history.kind.answer': 'Antwort',
  'history.kind.call-end': 'Aufruf beendet',
  'history.app.shown': 'App angezeigt',
  'history.app.message': 'App-Nachricht (nicht gesendet: kein Modell)',
  'history.app.model-context': 'App-Kontext (nicht gesendet: kein Modell)',
  'history.app.link-refused': 'App-Link vom Host abgelehnt',
  'history.app.link-opened': 'App-Link von Ihnen geöffnet',
  'history.app.link-declined': 'App-Link abgelehnt',
  'history.app.closed': 'App vom Host geschlossen',
  'history.kind.task': 'Aufgabenstatus',
  'history.mode.form': 'Formulare',
  'history.mode.url': 'Link',
  'history.title.form': '{server} bat um Angaben',
  'history.title.confirm': '{server} bat um Ihre Bestätigung',
  'history.title.url': '{server} bat Sie, einen Link zu öffnen',
  'history.form.sent': 'Das Formular, wie es angezeigt wurde, mit der gesendeten Antwort.',
  'history.form.notSent': 'Das Formular, wie es angezeigt wurde. Es wurde nichts gesendet.',
  'history.form.redacted':
    'Das Formular, wie es angezeigt wurde. Die Werte der Antwort wurden nicht festgehalten (Schwärzung war an).',
  'history.detail.none': 'Kein Eintrag gewählt.',
  'history.detail.region': 'Ausgewählter Eintrag',
  'history.detail.noneHint':
    'Wählen Sie einen, um die Frage so zu sehen, wie sie angezeigt wurde, und wie sie beantwortet wurde.',
  'history.detail.answer': 'Was daraus wurde',
  'history.detail.outcome': 'Ergebnis',
  'history.detail.asked': 'Gefragt',
  'history.detail.answered': 'Beantwortet',
  'history.detail.decidedBy': 'Entschieden von',
  'history.detail.linkOpened': 'Link geöffnet',
  'history.detail.content': 'Inhalt',
  'history.detail.redacted': 'Geschwärzt.',
  'history.detail.redactedFields': 'Felder:',
  'history.detail.noContent': 'Keiner',
  'history.detail.call': 'Der Aufruf',
  'history.detail.rounds': 'Runden: {count}',
  'history.detail.agent': 'Agent',
  'history.detail.protocol': 'Protokoll',
  'history.detail.time': 'Zeit',
  'history.detail.server': 'Server',
  'history.detail.what': 'Einzelheiten',
  'history.detail.reportedBy': 'Quelle',
  'history.reportedByGateway.short': 'über Gateway',
  'history.decidedBy.human': 'Sie',
  'history.decidedBy.script': 'Ein Skript',
  'history.decidedBy.mute-rule': '„In dieser Sitzung nicht mehr fragen“',
  'history.decidedBy.timeout': 'Niemand: Die Zeit ist abgelaufen',
  'history.decidedBy.call-cancelled': 'Niemand: Der Aufruf wurde abgebrochen',
  'history.decidedBy.policy': 'Die Regeln von Countersign',
  'history.decidedBy.app-closing': 'Niemand: Countersign wurde beendet',
  'history.decidedBy.input-closed': 'Niemand: Die Eingabe im Terminal endete',
  'history.decidedBy.other': 'Etwas anderes',
  'history.callEnd.complete': 'Abgeschlossen',
  'history.callEnd.toolError': 'Abgeschlossen mit Werkzeugfehler',
  'history.callEnd.error': 'Fehlgeschlagen',
  'history.callEnd.round-limit': 'Am Rundenlimit gestoppt',
  'history.callEnd.cancelled': 'Abgebrochen',
  'history.callEnd.other': 'Beendet',
  'history.callEnd.unknown': '(Noch) nicht beendet',
  'history.yes': 'Ja',
  'history.no': 'Nein',

  'settings.lede': 'Auf diesem Computer gespeichert und von jedem Countersign-Fenster genutzt.',
  'passkeys.title': 'Passkeys',
  'passkeys.offer':
    'Countersign kann nach Ihrem Passkey fragen, bevor eine Zustimmung zu solch einem Werkzeug gesendet wird, ' +
    'damit kein anderes Programm auf diesem Computer für Sie zustimmen kann. Registrieren Sie einen Passkey unter ' +
    'Einstellungen → Passkeys.',
  'passkeys.offerOn': 'Bei zerstörerischen Werkzeugen nach einem Passkey fragen',
  'passkeys.offerNotNow': 'Nicht jetzt',
  'passkeys.lede':
    'Vor dem Senden einer Zustimmung nach Ihrem Passkey fragen. Ein anderes Programm auf diesem Computer kann ' +
    'einen Knopf drücken, aber Ihren Passkey nicht unterschreiben lassen. Ablehnen und Abbrechen brauchen nie ' +
    'einen; die Zustimmung eines Skripts wird abgewiesen.',
  'passkeys.when': 'Nach einem Passkey fragen bei',
  'passkeys.destructive': 'Werkzeugen, die der Server als zerstörerisch kennzeichnet',
  'passkeys.every': 'jeder Zustimmung',
  'passkeys.chosen': 'Ausgewählte Server und Werkzeuge',
  'passkeys.chosenServer': 'Jedes Werkzeug von {server}',
  'passkeys.chosenTool': '{tool} von {server}',
  'passkeys.remove': 'Entfernen',
  'passkeys.server': 'Server',
  'passkeys.tool': 'Werkzeug (leer: alle)',
  'passkeys.add': 'Hinzufügen',
  'passkeys.none':
    'Kein Passkey ist registriert: Zustimmungen gehen ohne ihn hinaus, und der Verlauf vermerkt jede als ohne ' +
    'Passkey gesendet.',
  'passkeys.registered': 'Registrierte Passkeys',
  'passkeys.empty': 'Noch keiner.',
  'passkeys.revokedAt': 'widerrufen {when}',
  'passkeys.revoke': 'Widerrufen',
  'passkeys.name': 'Name eines neuen Passkeys',
  'passkeys.register': 'Passkey registrieren',
  'passkeys.registering': 'Schließen Sie die Registrierung auf der geöffneten Seite ab.',
  'settings.section.display': 'Anzeige',
  'settings.section.questions': 'Fragen und Verlauf',
  'settings.maxRounds': 'Rundenlimit',
  'settings.maxRoundsHint': 'Wie oft ein Aufruf mit weiteren Fragen zurückkommen darf, bevor Countersign ihn stoppt.',
  'settings.maxRoundsError': 'Geben Sie eine ganze Zahl von {min} bis {max} ein.',
  'settings.timeLimit': 'Zeitlimit für Fragen',
  'settings.timeLimit.none': 'Keines (Fragen warten auf Sie)',
  'settings.timeLimit.minutes': '{minutes} Min.',
  'settings.timeLimitHint':
    'Eine Frage, die so lange unbeantwortet bleibt, wird abgebrochen; der Verlauf vermerkt die Zeitüberschreitung.',
  'settings.noticeDetail': 'Benachrichtigungen zeigen',
  'settings.noticeDetail.names': 'Den Server und das Werkzeug',
  'settings.noticeDetail.message': 'Den Server, das Werkzeug und die Frage',
  'settings.noticeDetailHint':
    'Benachrichtigungszentralen behalten, was sie zeigen. Die Frage ist der Text des Servers, ' +
    'auf eine Zeile gekürzt; Argumente werden nie gezeigt.',
  'settings.history': 'Verlauf',
  'settings.redact': 'Antwortwerte nicht im Verlauf speichern',
  'settings.redactHint':
    'Hält fest, welche Felder beantwortet wurden, und einen Fingerabdruck, nie die Werte. ' +
    'Gilt für Antworten ab jetzt.',
  'settings.saveFailed': 'Die Einstellung konnte nicht gespeichert werden: {error}',
};
