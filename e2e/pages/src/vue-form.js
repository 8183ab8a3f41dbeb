// A Vue 3 form bound with v-model semantics (render functions, so no
// template compiler ships): every control's value lives in a reactive
// object, the DOM mirrors it. Text inputs listen to `input`, the select to
// `change`, the newsletter box to `change` on `checked`. The state is
// rendered into <pre id="state"> and kept on window.__vueState.
import { createApp, h, reactive, watchEffect } from 'vue';

const form = reactive({ givenName: '', familyName: '', email: '', phone: '', city: '', postcode: '', country: '', newsletter: false });
watchEffect(() => {
  window.__vueState = { ...form };
});

function text(label, key, type = 'text', autocomplete) {
  return h('label', null, [
    label,
    h('input', {
      id: key,
      name: key,
      type,
      autocomplete,
      value: form[key],
      onInput: (e) => {
        form[key] = e.target.value;
      },
    }),
  ]);
}

createApp({
  render: () => [
    h('form', { id: 'vue-form', onSubmit: (e) => e.preventDefault() }, [
      text('First name', 'givenName', 'text', 'given-name'),
      text('Last name', 'familyName', 'text', 'family-name'),
      text('Email', 'email', 'email', 'email'),
      text('Phone', 'phone', 'tel', 'tel'),
      text('City', 'city', 'text', 'address-level2'),
      text('Postcode', 'postcode', 'text', 'postal-code'),
      h('label', null, [
        'Country',
        h(
          'select',
          {
            id: 'country',
            name: 'country',
            autocomplete: 'country',
            value: form.country,
            onChange: (e) => {
              form.country = e.target.value;
            },
          },
          [['', 'Select…'], ['DE', 'Germany'], ['NL', 'Netherlands'], ['US', 'United States']].map(([v, t]) => h('option', { value: v }, t)),
        ),
      ]),
      h('label', { class: 'wide' }, [
        h('span', null, [
          h('input', {
            id: 'newsletter',
            name: 'newsletter',
            type: 'checkbox',
            checked: form.newsletter,
            onChange: (e) => {
              form.newsletter = e.target.checked;
            },
          }),
          ' Keep me posted',
        ]),
      ]),
      h('button', { type: 'submit' }, 'Register'),
    ]),
    h('pre', { id: 'state' }, JSON.stringify(form)),
  ],
}).mount('#root');
