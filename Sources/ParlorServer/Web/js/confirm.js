// Asking before something that cannot be undone: a small modal dialog with the question, what
// follows, Cancel (focused: the safe answer, and what Escape means) and the action, in red.

import { h } from './dom.js';

/** Resolves true when the person confirms, false when they cancel (Cancel, Escape). The caller
 * puts the focus back where it belongs. */
export function confirmAction({ title, text, confirm }) {
  return new Promise((resolve) => {
    let answer = false;
    const cancelButton = h('button', { type: 'button', class: 'button button-secondary', text: 'Cancel', on: { click: () => dialog.close() } });
    const dialog = h('dialog', {
      class: 'dialog confirm-dialog', attrs: { 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
      on: {
        close: () => {
          dialog.remove();
          resolve(answer);
        },
      },
    }, h('div', { class: 'dialog-form' },
      h('header', { class: 'dialog-header' }, h('h2', { id: 'confirm-title', text: title })),
      h('p', { id: 'confirm-text', text }),
      h('div', { class: 'dialog-actions' },
        cancelButton,
        h('button', {
          type: 'button', class: 'button button-danger', text: confirm,
          on: {
            click: () => {
              answer = true;
              dialog.close();
            },
          },
        }))));
    document.body.append(dialog);
    dialog.showModal();
    cancelButton.focus();
  });
}
