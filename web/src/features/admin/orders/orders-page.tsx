import { Route, Routes } from 'react-router';
import { OrderDetail } from './order-detail';
import { OrderList } from './order-list';

/** `/admin/orders/*`: the list and one order. */
export function OrdersPage() {
  return (
    <Routes>
      <Route index element={<OrderList />} />
      <Route path=":id" element={<OrderDetail />} />
    </Routes>
  );
}
