// Settings: the game's settings, the dictionary, registering and the password.
import { t, uiLang } from './i18n.js';
import { $, el, errText, notice, S, saveSession, send, show, whoShow } from './ui.js';
import { switchUi } from './app.js';
import { SOCIAL_SETTINGS } from './social.js';

// ---- Settings ------------------------------------------------------------------------

export async function openSettings() {
  show('settings');
  $('set-ui-lang').value = uiLang();
  const sl = $('set-lang');
  sl.replaceChildren();
  for (const l of S.languages) { const o = el('option', '', t('lang_' + l, null, true) || l); o.value = l; sl.append(o); }
  sl.value = S.lang;
  drawAccount();
  const r = await send('SETTINGS');
  const box = $('set-keys');
  box.replaceChildren();
  // Friends and chat (issue #47): shown with their defaults until SETTINGS says otherwise.
  const social = {};
  for (const l of r.ok ? r.data : []) {
    if (l.f.key === 'lang') { S.lang = l.f.value; sl.value = l.f.value; continue; }
    if (SOCIAL_SETTINGS[l.f.key]) { social[l.f.key] = l.f; continue; }
    box.append(settingRow(l.f));
  }
  $('set-social').replaceChildren(...Object.keys(SOCIAL_SETTINGS).map((k) => settingRow(social[k] || { key: k, value: SOCIAL_SETTINGS[k][0] })));
}

export const CHOICES = Object.assign({ 'hangman-mode': ['evil', 'fair', 'phrase'] }, SOCIAL_SETTINGS);

/** One saved setting: a select for known choices, else a text field, and Save. */
export function settingRow(f) {
  const form = el('form', 'row-form');
  const id = 'set-' + f.key;
  const label = el('label', '', t('set_' + f.key, null, true) || f.key);
  label.htmlFor = id;
  let input;
  if (CHOICES[f.key]) {
    input = el('select');
    for (const c of CHOICES[f.key]) { const o = el('option', '', t('choice_' + c, null, true) || t('mode_' + c, null, true) || c); o.value = c; input.append(o); }
  } else {
    input = el('input');
    input.autocomplete = 'off';
  }
  input.id = id;
  input.dataset.test = 'setting';
  input.dataset.key = f.key;
  input.value = f.value;
  const save = el('button', 'small', t('save'));
  save.dataset.test = 'setting-save';
  save.dataset.key = f.key;
  form.append(label, input, save);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = await send(`SET ${f.key} ${input.value.trim()}`);
    notice(r.ok ? t('saved') : errText(r));
    if (r.ok) input.value = r.f.value;
  });
  return form;
}

export function drawAccount() {
  $('account-text').textContent = S.name ? t(S.registered ? 'loggedIn' : 'guest', { name: S.name }) : '';
  $('register-form').hidden = !S.name;
  $('register-user').value = S.name || ''; // for password managers
  $('register-label').textContent = t(S.registered ? 'passwordLabel' : 'registerLabel');
  $('register-submit').textContent = t(S.registered ? 'changePassword' : 'register');
}

$('set-ui-lang').addEventListener('change', (e) => switchUi(e.target.value));
$('set-lang').addEventListener('change', async (e) => {
  const r = await send('LANG ' + e.target.value);
  if (r.ok) { S.lang = r.f.lang; notice(t('saved')); } else { notice(errText(r)); e.target.value = S.lang; }
});
$('register-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const pw = $('register-password').value;
  $('register-password').value = '';
  const r = await send((S.registered ? 'PASSWORD ' : 'REGISTER ') + pw);
  if (!r.ok) { notice(errText(r)); return; }
  if (!S.registered) { S.registered = true; saveSession({ registered: true }); whoShow(); }
  notice(t(r.line.args[0] === 'PASSWORD' ? 'passwordChanged' : 'registered'));
  drawAccount();
});
$('change-name').addEventListener('click', () => { $('name-input').value = S.name || ''; show('name'); });
$('settings-back').addEventListener('click', () => show('menu'));
