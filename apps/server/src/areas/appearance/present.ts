// The appearance as the API shows it (the spec's Appearance): GitLab's defaults while no row exists, and
// each stored image as its URL on this server's root.
import type { Schemas } from '../../core/http/types.js';
import { type ImageField, imageUrl } from './images.js';
import type { AppearanceRow } from './store.js';

export type Appearance = Schemas['Appearance'];

/** GitLab's `Appearance.new`: empty texts, no images, its two bar colours, no e-mail header and footer. */
const DEFAULTS: Appearance = {
  title: '',
  description: '',
  logo: null,
  header_logo: null,
  favicon: null,
  new_project_guidelines: '',
  profile_image_guidelines: '',
  header_message: '',
  footer_message: '',
  message_background_color: '#E75E40',
  message_font_color: '#FFFFFF',
  email_header_and_footer_enabled: false,
};

function urlOf(row: AppearanceRow, field: ImageField): string | null {
  const filename = row[field];
  return filename === null ? null : imageUrl(field, filename);
}

export function presentAppearance(row: AppearanceRow | undefined): Appearance {
  if (!row) return { ...DEFAULTS };
  return {
    title: row.title,
    description: row.description,
    logo: urlOf(row, 'logo'),
    header_logo: urlOf(row, 'header_logo'),
    favicon: urlOf(row, 'favicon'),
    new_project_guidelines: row.new_project_guidelines,
    profile_image_guidelines: row.profile_image_guidelines,
    header_message: row.header_message,
    footer_message: row.footer_message,
    message_background_color: row.message_background_color,
    message_font_color: row.message_font_color,
    email_header_and_footer_enabled: row.email_header_and_footer_enabled === 1,
  };
}
