// The instance appearance (document 2, section 4.14): administrators read and change it; the stored images
// are served outside the API (appearanceImagesRouter, mounted by app.ts on the server's root).
import type { Area } from '../../core/area.js';
import { appearanceHandlers } from './routes.js';

export { appearanceImagesRouter } from './routes.js';

export const appearanceArea: Area = { name: 'appearance', handlers: appearanceHandlers };

// What the groups area's avatars share with the appearance's images: reading a file's type from its bytes,
// and a safe file name.
export { sanitizeImageName, sniffContentType, type UploadedImage } from './images.js';
