import type { Page } from '@playwright/test';

/**
 * How many pixels of a part of the page are of `colour` (a computed CSS colour, `rgb(…)`), within a
 * small tolerance, and the part's size in pixels: what the person sees there, from a screenshot.
 */
export async function colourPixels(
  page: Page,
  clip: { x: number; y: number; width: number; height: number },
  colour: string,
): Promise<{ count: number; width: number; height: number }> {
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(
    async ({ png, colour }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const [r, g, b] = colour.match(/\d+/g)!.map(Number);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let index = 0; index < data.length; index += 4)
        if (Math.abs(data[index]! - r!) + Math.abs(data[index + 1]! - g!) + Math.abs(data[index + 2]! - b!) < 40)
          count += 1;
      return { count, width: canvas.width, height: canvas.height };
    },
    { png, colour },
  );
}
