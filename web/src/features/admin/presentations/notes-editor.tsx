import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { linkAddress, noteHtmlToStore } from './notes-html';

/**
 * A slide note in rich text (Tiptap): bold, italic, bulleted and numbered lists, links.
 * `value` and `onChange` are the note's HTML as stored, sanitised to those tags
 * (`noteHtmlToStore`); an empty editor is an empty note. The editing area is a labelled
 * multi-line textbox; the toolbar's buttons say whether they are on (`aria-pressed`).
 */
export function NotesEditor({ label, value, disabled = false, onChange }: { label: string; value: string; disabled?: boolean; onChange: (html: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  // The HTML this editor last handed out: a `value` that differs came from outside (loaded, reset).
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  const [linking, setLinking] = useState(false);
  const [address, setAddress] = useState('');
  const [addressInvalid, setAddressInvalid] = useState(false);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: false,
        blockquote: false,
        code: false,
        codeBlock: false,
        horizontalRule: false,
        strike: false,
        underline: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', protocols: ['mailto'] },
      }),
    ],
    content: value,
    editable: !disabled,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-label`,
        class: 'admin-notes__area',
      },
    },
    onUpdate: ({ editor: changed }) => {
      const html = noteHtmlToStore(changed.getHTML());
      emitted.current = html;
      onChangeRef.current(html);
    },
  });

  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  const active = useEditorState({
    editor,
    // What is on where the caret is; an editor without the focus shows nothing pressed.
    selector: ({ editor: current }) => {
      const on = (name: string) => (current?.isFocused ?? false) && current.isActive(name);
      return { bold: on('bold'), italic: on('italic'), bulletList: on('bulletList'), orderedList: on('orderedList'), link: on('link') };
    },
  });

  const tools = [
    { key: 'bold', text: t('admin.presentations.notes.bold'), run: () => editor?.chain().focus().toggleBold().run() },
    { key: 'italic', text: t('admin.presentations.notes.italic'), run: () => editor?.chain().focus().toggleItalic().run() },
    { key: 'bulletList', text: t('admin.presentations.notes.bulletList'), run: () => editor?.chain().focus().toggleBulletList().run() },
    { key: 'orderedList', text: t('admin.presentations.notes.orderedList'), run: () => editor?.chain().focus().toggleOrderedList().run() },
  ] as const;

  function openLink() {
    setAddress((editor?.getAttributes('link').href as string | undefined) ?? '');
    setAddressInvalid(false);
    setLinking(true);
  }

  function applyLink() {
    if (!editor) return;
    if (address.trim() === '') {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      setLinking(false);
      return;
    }
    const href = linkAddress(address);
    if (!href) {
      setAddressInvalid(true);
      return;
    }
    editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    setLinking(false);
  }

  return (
    <div className="field field--wide admin-notes">
      <span id={`${id}-label`} className="field__label">
        {label}
      </span>
      <div className="admin-notes__toolbar" role="toolbar" aria-label={t('admin.presentations.notes.toolbar', { name: label })}>
        {tools.map((tool) => (
          <button
            key={tool.key}
            type="button"
            className="button button--small"
            aria-pressed={active?.[tool.key] ?? false}
            disabled={disabled || !editor}
            onClick={tool.run}
          >
            {tool.text}
          </button>
        ))}
        <button
          type="button"
          className="button button--small"
          aria-pressed={active?.link ?? false}
          aria-expanded={linking}
          disabled={disabled || !editor}
          onClick={() => (linking ? setLinking(false) : openLink())}
        >
          {t('admin.presentations.notes.link')}
        </button>
      </div>
      {linking && (
        <div className="admin-notes__link">
          <label htmlFor={`${id}-href`}>{t('admin.presentations.notes.linkAddress')}</label>
          <input
            id={`${id}-href`}
            type="url"
            inputMode="url"
            value={address}
            aria-invalid={addressInvalid}
            aria-describedby={addressInvalid ? `${id}-href-error` : undefined}
            onChange={(event) => setAddress(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyLink();
              } else if (event.key === 'Escape') {
                event.preventDefault();
                setLinking(false);
                editor?.commands.focus();
              }
            }}
          />
          <button type="button" className="button button--small" onClick={applyLink}>
            {t('admin.presentations.notes.applyLink')}
          </button>
          {addressInvalid && (
            <p id={`${id}-href-error`} className="field__error">
              {t('admin.presentations.notes.linkInvalid')}
            </p>
          )}
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
