/** Any other path: a 404 rendered by the root error boundary ('page not found' + home button). */
export function loader(): never {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
