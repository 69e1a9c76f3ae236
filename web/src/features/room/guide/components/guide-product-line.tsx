import type { GuideProduct } from '../api/room-admin';
import '../../components/product-rows.css';

/** A product in the guide's lists (search results, listing): picture, name, product number. */
export function GuideProductLine({ product }: { product: GuideProduct }) {
  return (
    <span className="room-row__open">
      <span className="room-row__media">{product.coverUrl ? <img src={product.coverUrl} alt="" loading="lazy" /> : null}</span>
      <span className="room-row__text">
        <span className="room-row__name">{product.name}</span>
        <span className="room-row__price">{product.productNumber}</span>
      </span>
    </span>
  );
}
