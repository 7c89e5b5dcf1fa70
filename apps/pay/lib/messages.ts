// The pages' texts in English and German. Server code picks one dictionary and hands only that
// one to the client island, so the browser never downloads the other language.
// Placeholders are {name}; amounts and dates arrive already formatted for the locale.

const en = {
  pageTitle: 'Checkout',
  linkTitle: 'Payment',
  loading: 'Working…',
  testnet: 'testnet',
  total: 'Total',
  chooseHeading: 'Choose how to pay',
  chooseHint: 'Pick the token and network your wallet will pay from.',
  pinnedHeading: 'Pay with {token} on {network}',
  showAddress: 'Show payment address',
  tokenOn: '{token} on {network}',
  sendExactly: 'Send exactly',
  sendRest: 'Send the remaining',
  toAddress: 'To this address',
  networkLabel: 'Network',
  copy: 'Copy',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copied: 'Copied',
  copyFailed: 'Copy failed: select the text and copy it yourself.',
  qrAlt: 'QR code with the payment details, for a wallet app',
  qrAltAddress: 'QR code of the payment address, for a wallet app',
  openWallet: 'Open in wallet app',
  warning:
    'Send only {token} on the {network} network to this address. Any other token, or {token} on another network, cannot be credited and may be lost.',
  timeLeft: 'Time left to pay',
  timeUp: 'The time to pay is up. Checking whether your payment arrived…',
  minutesLeft: '{minutes} minutes left to pay.',
  oneMinuteLeft: '1 minute left to pay.',
  changeNetwork: 'Pay with a different network',
  keepNetwork: 'Keep the current network',
  cancel: 'Cancel payment',
  cancelConfirm: 'Cancel this checkout? You will be sent back to the shop.',
  cancelYes: 'Yes, cancel',
  cancelNo: 'No, keep paying',
  payLater: 'Leave and return to the shop',
  statusWaiting: 'Waiting for your payment',
  statusWaitingDetail: 'This page updates by itself once your transfer arrives.',
  statusConfirming: 'Payment seen: waiting for confirmations',
  statusConfirmingDetail:
    '{received} arrived on {network}. It counts once the network has confirmed it; this takes a few minutes.',
  statusUnderpaid: 'Partly paid: {due} still due',
  statusUnderpaidDetail:
    'We received {received} of {expected}. Send the remaining {due} to the same address to complete the payment.',
  statusUnderpaidUntil: 'You can send the rest until {date}.',
  statusCompleted: 'Payment complete',
  statusCompletedDetail: 'We received {received}. Thank you!',
  statusOverpaid: 'Payment complete: you sent more than asked',
  statusOverpaidDetail:
    'We received {received}, which is {over} more than the {expected} asked. Contact the merchant about the difference.',
  statusLate: 'Your payment arrived after this checkout had closed, and it was accepted.',
  statusExpired: 'This checkout has expired',
  statusExpiredDetail: 'No payment arrived in time. If you sent one just now, it is still credited when it arrives.',
  statusCancelled: 'This checkout was cancelled',
  statusCancelledDetail: 'Do not send a payment for it.',
  statusFailed: 'This payment did not complete',
  statusFailedRefunded: 'The payment was refunded.',
  statusFailedUnderpaid: 'Only {received} of {expected} arrived. Contact the merchant about the amount received.',
  statusRefunded: 'This payment was refunded',
  redirecting: 'Returning you to the shop in 5 seconds.',
  returnNow: 'Return to the shop now',
  stay: 'Stay on this page',
  returnToShop: 'Return to the shop',
  connectionLost: 'Connection problem: retrying…',
  invoiceHeading: 'Invoice {number}',
  backToInvoice: 'Back to the invoice',
  invoicePageTitle: 'Invoice',
  billedTo: 'Billed to',
  dueDate: 'Due date',
  memo: 'Note',
  itemDescription: 'Description',
  itemQuantity: 'Qty',
  itemUnitPrice: 'Unit price',
  itemAmount: 'Amount',
  invoiceTotal: 'Total',
  invoiceStatusOpen: 'Open',
  invoiceStatusPaid: 'Paid',
  invoiceStatusVoid: 'Void',
  invoicePaidDetail: 'Paid on {date}. Thank you!',
  invoiceVoidDetail: 'The merchant has cancelled this invoice. Do not pay it.',
  invoiceRails: 'Pay 1:1 in a US dollar stablecoin: {rails}.',
  payInvoice: 'Pay {amount}',
  invoiceStartFailed: 'The payment could not be started. Please try again in a moment.',
  viewReceipt: 'View the receipt',
  receiptTitle: 'Receipt',
  supplementTitle: 'Supplement to receipt',
  creditNoteTitle: 'Credit note',
  issuedBy: 'Issued by',
  documentNumber: 'Number',
  documentDate: 'Date',
  documentAmount: 'Amount',
  receiptAmountNote: 'Paid in {token} on the {network} network.',
  transactionsHeading: 'Transactions',
  transactionHash: 'Transaction hash',
  blockNumber: 'Block',
  totalsHeading: 'Payment totals',
  totalReceived: 'Received',
  totalRefunded: 'Refunded',
  totalNet: 'Net',
  paymentIdLabel: 'Payment ID',
  print: 'Print',
  notFoundTitle: 'Page not found',
  notFoundDetail:
    'There is no checkout or payment link at this address. Check the link you were given, or ask the merchant for a new one.',
  archivedTitle: 'This payment link is no longer available',
  archivedDetail: 'The merchant has withdrawn this product, so it can no longer be bought here.',
  goneTitle: 'This product can no longer be bought',
  goneDetail:
    'It was a subscription, and recurring billing has been discontinued. Contact the merchant for other ways to buy.',
  unavailableTitle: 'Checkout is temporarily unavailable',
  unavailableDetail: 'We could not reach the payment service. Please try again in a moment.',
  amountLabel: 'Amount (USD)',
  amountBounds: 'Between {min} and {max}.',
  amountMin: 'At least {min}.',
  amountFormat: 'Enter an amount like 37 or 37.50.',
  amountOutOfBounds: 'The amount must be between {min} and {max}.',
  amountBelowMin: 'The amount must be at least {min}.',
  amountCharged: 'Charged 1:1 in the stablecoin you choose.',
  payWith: 'Pay with',
  continue: 'Continue',
  startOver: 'Start over with another network or amount',
  errorGeneric: 'Something went wrong. Please try again.',
};

export type Messages = typeof en;

const de: Messages = {
  pageTitle: 'Bezahlen',
  linkTitle: 'Zahlung',
  loading: 'Einen Moment…',
  testnet: 'Testnetz',
  total: 'Gesamt',
  chooseHeading: 'Wählen Sie, wie Sie bezahlen',
  chooseHint: 'Wählen Sie das Token und das Netzwerk, aus dem Ihre Wallet bezahlt.',
  pinnedHeading: 'Bezahlen mit {token} im Netzwerk {network}',
  showAddress: 'Zahlungsadresse anzeigen',
  tokenOn: '{token} im Netzwerk {network}',
  sendExactly: 'Senden Sie genau',
  sendRest: 'Senden Sie die restlichen',
  toAddress: 'An diese Adresse',
  networkLabel: 'Netzwerk',
  copy: 'Kopieren',
  copyAmount: 'Betrag kopieren',
  copyAddress: 'Adresse kopieren',
  copied: 'Kopiert',
  copyFailed: 'Kopieren fehlgeschlagen: Markieren Sie den Text und kopieren Sie ihn selbst.',
  qrAlt: 'QR-Code mit den Zahlungsdaten für eine Wallet-App',
  qrAltAddress: 'QR-Code der Zahlungsadresse für eine Wallet-App',
  openWallet: 'In der Wallet-App öffnen',
  warning:
    'Senden Sie an diese Adresse nur {token} im Netzwerk {network}. Andere Token oder {token} aus einem anderen Netzwerk können nicht gutgeschrieben werden und gehen womöglich verloren.',
  timeLeft: 'Verbleibende Zeit zum Bezahlen',
  timeUp: 'Die Zeit zum Bezahlen ist abgelaufen. Wir prüfen, ob Ihre Zahlung eingegangen ist…',
  minutesLeft: 'Noch {minutes} Minuten zum Bezahlen.',
  oneMinuteLeft: 'Noch 1 Minute zum Bezahlen.',
  changeNetwork: 'Mit einem anderen Netzwerk bezahlen',
  keepNetwork: 'Beim aktuellen Netzwerk bleiben',
  cancel: 'Zahlung abbrechen',
  cancelConfirm: 'Diesen Bezahlvorgang abbrechen? Sie werden zum Shop zurückgeleitet.',
  cancelYes: 'Ja, abbrechen',
  cancelNo: 'Nein, weiter bezahlen',
  payLater: 'Verlassen und zum Shop zurückkehren',
  statusWaiting: 'Wir warten auf Ihre Zahlung',
  statusWaitingDetail: 'Diese Seite aktualisiert sich von selbst, sobald Ihre Überweisung eingeht.',
  statusConfirming: 'Zahlung erkannt: warten auf Bestätigungen',
  statusConfirmingDetail:
    '{received} sind im Netzwerk {network} eingegangen. Sie zählen, sobald das Netzwerk sie bestätigt hat; das dauert einige Minuten.',
  statusUnderpaid: 'Teilweise bezahlt: noch {due} offen',
  statusUnderpaidDetail:
    'Wir haben {received} von {expected} erhalten. Senden Sie die restlichen {due} an dieselbe Adresse, um die Zahlung abzuschließen.',
  statusUnderpaidUntil: 'Sie können den Rest bis {date} senden.',
  statusCompleted: 'Zahlung abgeschlossen',
  statusCompletedDetail: 'Wir haben {received} erhalten. Vielen Dank!',
  statusOverpaid: 'Zahlung abgeschlossen: Sie haben mehr als verlangt gesendet',
  statusOverpaidDetail:
    'Wir haben {received} erhalten, {over} mehr als die verlangten {expected}. Wenden Sie sich wegen der Differenz an den Händler.',
  statusLate: 'Ihre Zahlung ist nach dem Ende dieses Bezahlvorgangs eingegangen und wurde angenommen.',
  statusExpired: 'Dieser Bezahlvorgang ist abgelaufen',
  statusExpiredDetail:
    'Es ist keine Zahlung rechtzeitig eingegangen. Falls Sie gerade eben bezahlt haben, wird die Zahlung nach Eingang trotzdem gutgeschrieben.',
  statusCancelled: 'Dieser Bezahlvorgang wurde abgebrochen',
  statusCancelledDetail: 'Senden Sie dafür keine Zahlung mehr.',
  statusFailed: 'Diese Zahlung wurde nicht abgeschlossen',
  statusFailedRefunded: 'Die Zahlung wurde erstattet.',
  statusFailedUnderpaid:
    'Nur {received} von {expected} sind eingegangen. Wenden Sie sich wegen des erhaltenen Betrags an den Händler.',
  statusRefunded: 'Diese Zahlung wurde erstattet',
  redirecting: 'Sie werden in 5 Sekunden zum Shop zurückgeleitet.',
  returnNow: 'Jetzt zum Shop zurückkehren',
  stay: 'Auf dieser Seite bleiben',
  returnToShop: 'Zum Shop zurückkehren',
  connectionLost: 'Verbindungsproblem: neuer Versuch…',
  invoiceHeading: 'Rechnung {number}',
  backToInvoice: 'Zurück zur Rechnung',
  invoicePageTitle: 'Rechnung',
  billedTo: 'Rechnungsempfänger',
  dueDate: 'Fällig am',
  memo: 'Hinweis',
  itemDescription: 'Beschreibung',
  itemQuantity: 'Menge',
  itemUnitPrice: 'Einzelpreis',
  itemAmount: 'Betrag',
  invoiceTotal: 'Gesamt',
  invoiceStatusOpen: 'Offen',
  invoiceStatusPaid: 'Bezahlt',
  invoiceStatusVoid: 'Storniert',
  invoicePaidDetail: 'Bezahlt am {date}. Vielen Dank!',
  invoiceVoidDetail: 'Der Händler hat diese Rechnung storniert. Bitte bezahlen Sie sie nicht.',
  invoiceRails: 'Zahlbar 1:1 in einem US-Dollar-Stablecoin: {rails}.',
  payInvoice: '{amount} bezahlen',
  invoiceStartFailed: 'Die Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es gleich noch einmal.',
  viewReceipt: 'Quittung anzeigen',
  receiptTitle: 'Quittung',
  supplementTitle: 'Nachtrag zur Quittung',
  creditNoteTitle: 'Gutschrift',
  issuedBy: 'Ausgestellt von',
  documentNumber: 'Nummer',
  documentDate: 'Datum',
  documentAmount: 'Betrag',
  receiptAmountNote: 'Bezahlt in {token} im Netzwerk {network}.',
  transactionsHeading: 'Transaktionen',
  transactionHash: 'Transaktions-Hash',
  blockNumber: 'Block',
  totalsHeading: 'Summen der Zahlung',
  totalReceived: 'Erhalten',
  totalRefunded: 'Erstattet',
  totalNet: 'Netto',
  paymentIdLabel: 'Zahlungs-ID',
  print: 'Drucken',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundDetail:
    'Unter dieser Adresse gibt es keinen Bezahlvorgang und keinen Zahlungslink. Prüfen Sie den Link oder bitten Sie den Händler um einen neuen.',
  archivedTitle: 'Dieser Zahlungslink ist nicht mehr verfügbar',
  archivedDetail: 'Der Händler hat dieses Produkt zurückgezogen; es kann hier nicht mehr gekauft werden.',
  goneTitle: 'Dieses Produkt kann nicht mehr gekauft werden',
  goneDetail:
    'Es war ein Abonnement, und wiederkehrende Zahlungen wurden eingestellt. Fragen Sie den Händler nach anderen Möglichkeiten.',
  unavailableTitle: 'Bezahlen ist vorübergehend nicht möglich',
  unavailableDetail: 'Der Zahlungsdienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
  amountLabel: 'Betrag (USD)',
  amountBounds: 'Zwischen {min} und {max}.',
  amountMin: 'Mindestens {min}.',
  amountFormat: 'Geben Sie einen Betrag wie 37 oder 37,50 ein.',
  amountOutOfBounds: 'Der Betrag muss zwischen {min} und {max} liegen.',
  amountBelowMin: 'Der Betrag muss mindestens {min} betragen.',
  amountCharged: 'Berechnet 1:1 im gewählten Stablecoin.',
  payWith: 'Bezahlen mit',
  continue: 'Weiter',
  startOver: 'Mit einem anderen Netzwerk oder Betrag neu beginnen',
  errorGeneric: 'Etwas ist schiefgegangen. Bitte versuchen Sie es noch einmal.',
};

export type Lang = 'en' | 'de';
export const LANGS: readonly Lang[] = ['en', 'de'];
const DICTIONARIES: Record<Lang, Messages> = { en, de };

export function messagesFor(lang: Lang): Messages {
  return DICTIONARIES[lang];
}

export interface Locale {
  /** the dictionary */
  lang: Lang;
  /** the BCP 47 tag numbers and dates are formatted with ("de-AT", "en") */
  tag: string;
}

function supported(tag: string): Locale | null {
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag.replace(/_/g, '-'));
  } catch {
    return null;
  }
  if (!canonical) return null;
  const lang = canonical.split('-')[0].toLowerCase();
  return (LANGS as readonly string[]).includes(lang) ? { lang: lang as Lang, tag: canonical } : null;
}

/**
 * The session's `locale` when it names a language the pages speak; else the first supported
 * language of the browser's Accept-Language; else English.
 */
export function resolveLocale(sessionLocale: string | null | undefined, acceptLanguage?: string | null): Locale {
  if (sessionLocale) {
    const fromSession = supported(sessionLocale);
    if (fromSession) return fromSession;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, i) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
        return { tag, q: q ? Number(q[1]) : 1, i };
      })
      .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i);
    for (const { tag } of ranked) {
      const found = supported(tag);
      if (found) return found;
    }
  }
  return { lang: 'en', tag: 'en' };
}
